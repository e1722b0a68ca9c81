package watch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"
)

// statFields is what one /proc/PID/stat line tells about a process.
// Times are in clock ticks (CLK_TCK); rss is in pages.
type statFields struct {
	comm           []byte // aliases the read buffer
	state          byte
	ppid           int
	utime, stime   uint64
	cutime, cstime uint64 // of reaped children
	threads        int
	start          uint64 // start time in clock ticks after boot: with the PID, the process's identity
	rssPages       int64
}

var errBadStat = errors.New("malformed /proc/PID/stat")

// parseStat reads the fields of proc(5)'s /proc/PID/stat that the watcher
// uses. The command name sits in parentheses and may itself hold spaces and
// parentheses, so the fields are counted from the last ')'.
func parseStat(b []byte, f *statFields) error {
	open := bytes.IndexByte(b, '(')
	closing := bytes.LastIndexByte(b, ')')
	if open < 0 || closing < open {
		return errBadStat
	}
	f.comm = b[open+1 : closing]
	// Fields after the name, numbered as in proc(5): 3 state, 4 ppid,
	// 14 utime, 15 stime, 16 cutime, 17 cstime, 20 num_threads,
	// 22 starttime, 24 rss.
	rest := b[closing+1:]
	field := 2
	seen := 0
	for len(rest) > 0 && field < 24 {
		for len(rest) > 0 && rest[0] == ' ' {
			rest = rest[1:]
		}
		end := bytes.IndexAny(rest, " \n")
		if end < 0 {
			end = len(rest)
		}
		tok := rest[:end]
		rest = rest[end:]
		if len(tok) == 0 {
			break
		}
		field++
		switch field {
		case 3:
			f.state = tok[0]
			seen++
		case 4:
			f.ppid = int(atoi(tok))
			seen++
		case 14:
			f.utime = uint64(max(atoi(tok), 0))
			seen++
		case 15:
			f.stime = uint64(max(atoi(tok), 0))
			seen++
		case 16:
			f.cutime = uint64(max(atoi(tok), 0))
			seen++
		case 17:
			f.cstime = uint64(max(atoi(tok), 0))
			seen++
		case 20:
			f.threads = int(atoi(tok))
			seen++
		case 22:
			f.start = uint64(max(atoi(tok), 0))
			seen++
		case 24:
			f.rssPages = atoi(tok)
			seen++
		}
	}
	if seen != 9 {
		return errBadStat
	}
	return nil
}

// atoi parses a decimal integer (with optional '-') without allocating;
// anything else yields 0.
func atoi(b []byte) int64 {
	neg := false
	if len(b) > 0 && b[0] == '-' {
		neg, b = true, b[1:]
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		return -n
	}
	return n
}

// parsePID returns the PID a /proc entry name stands for, or -1 if the name
// is not all digits.
func parsePID(name []byte) int {
	if len(name) == 0 || len(name) > 9 {
		return -1
	}
	n := 0
	for _, c := range name {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// parseLoad1 returns the one-minute load average, the first field of /proc/loadavg.
func parseLoad1(b []byte) (float64, error) {
	end := bytes.IndexByte(b, ' ')
	if end < 0 {
		return 0, errors.New("malformed /proc/loadavg")
	}
	// Parsing a float from a byte slice: the conversion does not escape,
	// so the compiler does not allocate.
	return strconv.ParseFloat(string(b[:end]), 64)
}

// parseMemAvailable returns MemAvailable from /proc/meminfo, in bytes.
func parseMemAvailable(b []byte) (int64, error) {
	const key = "MemAvailable:"
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return 0, errors.New("no MemAvailable in /proc/meminfo (kernel before 3.14?)")
	}
	rest := bytes.TrimLeft(b[i+len(key):], " ")
	end := bytes.IndexByte(rest, ' ')
	if end < 0 {
		return 0, errors.New("malformed MemAvailable line in /proc/meminfo")
	}
	kb := atoi(rest[:end])
	return kb * 1024, nil
}

// atClkTck is the auxiliary-vector key under which the kernel passes
// CLK_TCK (the unit of the times in /proc/PID/stat) to every process.
const atClkTck = 17

// defaultClkTck is USER_HZ, fixed at 100 by the kernel ABI on every
// architecture Go supports; it is used when the auxiliary vector cannot be read.
const defaultClkTck = 100

// parseClkTck finds AT_CLKTCK in the contents of /proc/self/auxv (pairs of
// native-endian machine words), or returns defaultClkTck.
func parseClkTck(b []byte, wordSize int) int64 {
	for i := 0; i+2*wordSize <= len(b); i += 2 * wordSize {
		var key, val uint64
		if wordSize == 8 {
			key = binary.NativeEndian.Uint64(b[i:])
			val = binary.NativeEndian.Uint64(b[i+8:])
		} else {
			key = uint64(binary.NativeEndian.Uint32(b[i:]))
			val = uint64(binary.NativeEndian.Uint32(b[i+4:]))
		}
		if key == 0 {
			break
		}
		if key == atClkTck && val > 0 && val < 1e6 {
			return int64(val)
		}
	}
	return defaultClkTck
}

// argv0Names returns the base name of argv[0] in a /proc/PID/cmdline, and
// the base name of its first word (servers that rewrite their title, such as
// "starman master --listen :5000" or "nginx: worker process", put spaces
// where the NULs were).
func argv0Names(cmdline []byte) (base, word string) {
	if i := bytes.IndexByte(cmdline, 0); i >= 0 {
		cmdline = cmdline[:i]
	}
	base = string(baseName(cmdline))
	first := cmdline
	if i := bytes.IndexByte(first, ' '); i >= 0 {
		first = first[:i]
	}
	first = bytes.TrimSuffix(baseName(first), []byte(":"))
	if string(first) == base {
		return base, base
	}
	return base, string(first)
}

func baseName(b []byte) []byte {
	if i := bytes.LastIndexByte(b, '/'); i >= 0 {
		return b[i+1:]
	}
	return b
}
