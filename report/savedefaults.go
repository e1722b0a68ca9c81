package report

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// SaveServiceDefaults reads the jmeter.save.saveservice.* defaults that a
// jmeter.properties documents in its comments, the first of each key
// ("#jmeter.save.saveservice.connect_time=false"). JMeter's own
// jmeter.properties lists each setting so, commented out, with the default
// of the JMeter version that shipped it: for a results file without a
// header line, they give the columns that version wrote. A column setting
// such a file does not mention at all (sent_bytes before JMeter 3.1) is
// one that version did not have, and comes back "false". A file that
// documents no setting in a comment gives nothing.
func SaveServiceDefaults(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("properties: %w", err)
	}
	defer f.Close()
	out := map[string]string{}
	mentioned := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := strings.TrimLeft(sc.Text(), " \t\f")
		commented := strings.HasPrefix(line, "#")
		line = strings.TrimLeft(strings.TrimPrefix(line, "#"), " \t\f")
		if !strings.HasPrefix(line, savePropPrefix) {
			continue
		}
		k, v := splitProperty(line)
		mentioned[k] = true
		if _, seen := out[k]; !seen && commented {
			out[k] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("properties %s: %w", path, err)
	}
	if len(out) == 0 {
		return out, nil
	}
	for key := range propFlags {
		if k := savePropPrefix + key; !mentioned[k] {
			out[k] = "false"
		}
	}
	return out, nil
}
