package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/gojm/gojm/engine"
)

// bytesPerUser is what a virtual user costs beyond the process itself:
// 22 KiB measured at 2,000 and 10,000 users waiting on their responses
// (docs/performance.md), rounded up.
const bytesPerUser = 24 << 10

// checkMemory refuses a plan that asks for more virtual users than the
// machine's available memory holds, before the run starts (a plan asking
// for ten million users would otherwise grow until the system kills it);
// --no-memory-check runs it anyway. Without /proc/meminfo there is no
// check.
func checkMemory(p *engine.Plan, skip bool) error {
	users := p.Users()
	if skip || users == 0 {
		return nil
	}
	avail, ok := availableMemory()
	if !ok || int64(users)*bytesPerUser <= avail {
		return nil
	}
	return &exitErr{exitUnsupported, fmt.Errorf("the plan asks for %d users at once: at about %d KiB each that is %s, and this machine has %s available; lower the thread counts (-J for those read from properties), or run with --no-memory-check",
		users, bytesPerUser>>10, mib(int64(users)*bytesPerUser), mib(avail))}
}

func mib(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }

// availableMemory is MemAvailable of /proc/meminfo, bounded by the
// cgroup's memory limit when there is one.
func availableMemory() (int64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var avail int64 = -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "MemAvailable:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				avail = kb << 10
			}
		}
	}
	if avail < 0 {
		return 0, false
	}
	if limit, err := cgroupLimit(); err == nil && limit < avail {
		avail = limit
	}
	return avail, true
}

// cgroupLimit is the memory limit of the process's cgroup (v2) less what
// it uses.
func cgroupLimit() (int64, error) {
	dir := "/sys/fs/cgroup"
	if b, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if path, ok := strings.CutPrefix(line, "0::"); ok {
				dir += strings.TrimSuffix(path, "/")
			}
		}
	}
	read := func(name string) (int64, error) {
		b, err := os.ReadFile(dir + "/" + name)
		if err != nil {
			return 0, err
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			return 0, errors.New("no limit")
		}
		return strconv.ParseInt(s, 10, 64)
	}
	limit, err := read("memory.max")
	if err != nil {
		return 0, err
	}
	used, err := read("memory.current")
	if err != nil {
		return 0, err
	}
	return limit - used, nil
}
