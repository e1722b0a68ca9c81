package watch

import (
	"encoding/binary"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseStat(t *testing.T) {
	tests := []struct {
		name    string
		line    string
		want    statFields
		wantErr bool
	}{
		{
			name: "kernel's own line",
			line: "1234 (nginx) S 1 1234 1234 0 -1 4194624 5000 0 3 0 250 75 12 3 20 0 4 0 98765 123456789 2560 18446744073709551615 1 1 0 0 0 0 0 4096 134234626 0 0 0 17 1 0 0 0 0 0\n",
			want: statFields{comm: []byte("nginx"), state: 'S', ppid: 1, utime: 250, stime: 75, cutime: 12, cstime: 3, threads: 4, start: 98765, rssPages: 2560},
		},
		{
			name: "name with spaces and parentheses",
			line: "77 (my (odd) name) R 76 77 77 0 -1 0 0 0 0 0 9 1 0 0 20 0 1 0 5 0 10 0\n",
			want: statFields{comm: []byte("my (odd) name"), state: 'R', ppid: 76, utime: 9, stime: 1, threads: 1, start: 5, rssPages: 10},
		},
		{
			name: "negative children times read as zero",
			line: "8 (x) S 1 8 8 0 -1 0 0 0 0 0 1 2 -3 -4 20 0 1 0 5 0 10\n",
			want: statFields{comm: []byte("x"), state: 'S', ppid: 1, utime: 1, stime: 2, threads: 1, start: 5, rssPages: 10},
		},
		{name: "cut short", line: "8 (x) S 1 8 8 0 -1 0 0 0 0 0 1 2", wantErr: true},
		{name: "no name", line: "8 x S 1 8 8", wantErr: true},
		{name: "empty", line: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got statFields
			err := parseStat([]byte(tt.line), &got)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if string(got.comm) != string(tt.want.comm) {
				t.Errorf("comm %q, want %q", got.comm, tt.want.comm)
			}
			got.comm, tt.want.comm = nil, nil
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseMachine(t *testing.T) {
	load, err := parseLoad1([]byte("2.47 1.10 0.95 3/612 99123\n"))
	if err != nil || load != 2.47 {
		t.Errorf("load1 = %v, %v; want 2.47", load, err)
	}
	if _, err := parseLoad1([]byte("garbage")); err == nil {
		t.Error("malformed loadavg accepted")
	}
	mem, err := parseMemAvailable([]byte("MemTotal:       16000000 kB\nMemFree:  100 kB\nMemAvailable:    8000000 kB\n"))
	if err != nil || mem != 8000000*1024 {
		t.Errorf("MemAvailable = %v, %v; want %d", mem, err, 8000000*1024)
	}
	if _, err := parseMemAvailable([]byte("MemTotal: 1 kB\n")); err == nil {
		t.Error("meminfo without MemAvailable accepted")
	}
}

func TestParseClkTck(t *testing.T) {
	auxv := func(pairs ...uint64) []byte {
		var b []byte
		for _, v := range pairs {
			b = binary.NativeEndian.AppendUint64(b, v)
		}
		return b
	}
	auxv32 := func(pairs ...uint32) []byte {
		var b []byte
		for _, v := range pairs {
			b = binary.NativeEndian.AppendUint32(b, v)
		}
		return b
	}
	tests := []struct {
		name string
		auxv []byte
		word int
		want int64
	}{
		{"found", auxv(6, 4096, atClkTck, 250, 0, 0), 8, 250},
		{"32-bit words", auxv32(6, 4096, atClkTck, 1000, 0, 0), 4, 1000},
		{"absent", auxv(6, 4096, 0, 0), 8, defaultClkTck},
		{"after the end marker", auxv(0, 0, atClkTck, 250), 8, defaultClkTck},
		{"empty", nil, 8, defaultClkTck},
		{"zero", auxv(atClkTck, 0), 8, defaultClkTck},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseClkTck(tt.auxv, tt.word); got != tt.want {
				t.Errorf("CLK_TCK = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestArgv0Names(t *testing.T) {
	tests := []struct {
		cmdline, base, word string
	}{
		{"/usr/bin/perl\x00script.pl\x00", "perl", "perl"},
		{"starman master --listen :5000\x00", "starman master --listen :5000", "starman"},
		{"nginx: worker process\x00\x00", "nginx: worker process", "nginx"},
		{"/opt/app/bin/server", "server", "server"},
		{"", "", ""},
	}
	for _, tt := range tests {
		base, word := argv0Names([]byte(tt.cmdline))
		if base != tt.base || word != tt.word {
			t.Errorf("argv0Names(%q) = %q, %q; want %q, %q", tt.cmdline, base, word, tt.base, tt.word)
		}
	}
}

func TestParseTargets(t *testing.T) {
	pids, names, err := parseTargets([]string{"42", "nginx", " 7 ", "php-fpm"})
	if err != nil || !slices.Equal(pids, []int{42, 7}) || !slices.Equal(names, []string{"nginx", "php-fpm"}) {
		t.Errorf("got %v %v %v", pids, names, err)
	}
	for _, bad := range []string{"0", "-1", ""} {
		if _, _, err := parseTargets([]string{bad}); err == nil {
			t.Errorf("target %q accepted", bad)
		}
	}
}

func TestParsePID(t *testing.T) {
	for name, want := range map[string]int{"1": 1, "4194304": 4194304, "self": -1, "": -1, "12a": -1, "1234567890": -1} {
		if got := parsePID([]byte(name)); got != want {
			t.Errorf("parsePID(%q) = %d, want %d", name, got, want)
		}
	}
}

func TestAppendCSVField(t *testing.T) {
	tests := map[string]string{
		"nginx":         "nginx",
		"a,b":           `"a,b"`,
		`say "hi"`:      `"say ""hi"""`,
		" padded":       `" padded"`,
		"line\nbreak":   "\"line\nbreak\"",
		"kworker/0:1-e": "kworker/0:1-e",
	}
	for in, want := range tests {
		if got := string(appendCSVField(nil, in)); got != want {
			t.Errorf("appendCSVField(%q) = %s, want %s", in, got, want)
		}
	}
	// And the reader gets the names back.
	b := []byte(csvHeader)
	var want []string
	pid := 5
	for in := range tests {
		r := row{unixMilli: 1000, elapsed: 1, pid: pid, name: in, fds: -1}
		b = appendRow(b, &r)
		want = append(want, in)
		pid++
	}
	s, err := DecodeServerCSV(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.Procs {
		got = append(got, p.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("names read back %q, want %q", got, want)
	}
}
