package report

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// ReadProperties reads a Java properties file (jmeter.properties,
// user.properties, a -q or -p file): comments, "=", ":" and blank
// separators, continuation lines and backslash escapes.
func ReadProperties(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("properties: %w", err)
	}
	defer f.Close()
	props := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var logical strings.Builder
	flush := func() {
		k, v := splitProperty(logical.String())
		logical.Reset()
		if k != "" {
			props[k] = v
		}
	}
	for sc.Scan() {
		line := strings.TrimLeft(sc.Text(), " \t\f")
		if logical.Len() == 0 && (line == "" || line[0] == '#' || line[0] == '!') {
			continue
		}
		if n := trailingBackslashes(line); n%2 == 1 {
			logical.WriteString(line[:len(line)-1])
			continue
		}
		logical.WriteString(line)
		flush()
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("properties %s: %w", path, err)
	}
	if logical.Len() > 0 {
		flush()
	}
	return props, nil
}
