package engine

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/beevik/etree"
	"github.com/gojm/gojm/examples/target"
	"github.com/gojm/gojm/jmx"
)

// The corpus oracle: every real plan of corpus/repos that JMeter 2.13 runs,
// tamed (below), sends the same requests from gojm. What JMeter 2.13 sent
// is recorded in testdata/oracle/corpus, one file of request lines per
// plan, and the plans it was not recorded for are listed with the reason in
// testdata/oracle/corpus/not-recorded.tsv. Record them again, inside a
// network namespace that has only the loopback, with
//
//	scripts/corpus-oracle.sh
//
// (go test ./engine -run TestCorpusOracle -record-corpus-jmeter, under
// unshare -n).
var recordCorpusJMeter = flag.Bool("record-corpus-jmeter", false, "record testdata/oracle/corpus again with ../shared/oracle/jmeter213 (inside a loopback-only network namespace)")

var corpusOracleOnly = flag.String("corpus-plan", "", "with -record-corpus-jmeter: record only the plans whose golden name contains this")

const corpusOracleDir = "testdata/oracle/corpus"

// Taming makes a real plan safe and deterministic to run against a local
// target, the same way for both JMeters: each thread group runs one thread
// once, the groups one after the other, with no scheduler; timers and
// listeners are removed and Flow Control pauses cut to 0; every HTTP
// server name, port and absolute URL points at the target (properties
// oracle.host and oracle.port), with no embedded resources; samplers of
// other protocols are disabled, so that nothing reaches a real host.
func tamePlan(src []byte) ([]byte, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(src); err != nil {
		return nil, err
	}
	root := doc.Root()
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	var walk func(*etree.Element)
	walk = func(e *etree.Element) {
		kids := e.ChildElements()
		for i := 0; i < len(kids); i++ {
			c := kids[i]
			if c.Tag == "hashTree" {
				walk(c)
				continue
			}
			switch {
			case removedWhenTamed(c):
				e.RemoveChild(c)
				if i+1 < len(kids) && kids[i+1].Tag == "hashTree" {
					e.RemoveChild(kids[i+1])
					i++
				}
				continue
			case disabledWhenTamed(c):
				c.CreateAttr("enabled", "false")
			}
			tameElement(c)
		}
	}
	walk(root)
	var buf bytes.Buffer
	if _, err := doc.WriteTo(&buf); err != nil {
		return nil, err
	}
	// A carriage return in a value was a character reference (the XML
	// reader turns a raw one into a line feed); etree writes it raw.
	return bytes.ReplaceAll(buf.Bytes(), []byte("\r"), []byte("&#13;")), nil
}

// removedWhenTamed: timers slow a run down and listeners write files.
func removedWhenTamed(e *etree.Element) bool {
	class := elementClass(e)
	return strings.HasSuffix(class, "Timer") || strings.Contains(class, "ResultCollector") ||
		class == "BackendListener" || class == "Summariser"
}

// disabledWhenTamed: samplers and configurations of protocols other than
// HTTP, which would reach the plan's real servers.
func disabledWhenTamed(e *etree.Element) bool {
	switch elementClass(e) {
	case "JDBCSampler", "JDBCDataSource", "JDBCPreProcessor", "JDBCPostProcessor", "TCPSampler", "SmtpSampler",
		"FTPSampler", "LDAPSampler", "LDAPExtSampler", "JMSSampler", "PublisherSampler", "SubscriberSampler",
		"SystemSampler", "MailReaderSampler", "AccessLogSampler", "AjpSampler", "SoapSampler",
		"WebServiceSampler", "JUnitSampler", "BoltSampler", "DNSCacheManager":
		return true
	}
	return false
}

func elementClass(e *etree.Element) string {
	if c := e.SelectAttrValue("testclass", ""); c != "" {
		return c
	}
	return e.Tag
}

var absoluteURL = regexp.MustCompile(`^(?i)https?://[^/]*`)

// tameElement rewrites one element's own properties (and those of the
// elementProps it holds, such as a thread group's loop controller).
func tameElement(e *etree.Element) {
	class := elementClass(e)
	props := map[string]*etree.Element{}
	var collect func(*etree.Element)
	collect = func(p *etree.Element) {
		for _, c := range p.ChildElements() {
			if name := c.SelectAttrValue("name", ""); name != "" {
				if _, ok := props[name]; !ok {
					props[name] = c
				}
			}
			if c.Tag == "elementProp" {
				collect(c)
			}
		}
	}
	collect(e)
	set := func(name, value string) {
		p, ok := props[name]
		if !ok {
			p = e.CreateElement("stringProp")
			p.CreateAttr("name", name)
			props[name] = p
		}
		if p.Tag == "elementProp" || p.Tag == "collectionProp" {
			return
		}
		p.SetText(value)
	}
	switch class {
	case "TestPlan":
		set("TestPlan.serialize_threadgroups", "true")
	case "ThreadGroup", "SetupThreadGroup", "PostThreadGroup":
		set("ThreadGroup.num_threads", "1")
		set("ThreadGroup.ramp_time", "0")
		set("ThreadGroup.scheduler", "false")
		set("ThreadGroup.duration", "")
		set("ThreadGroup.delay", "")
		set("LoopController.loops", "1")
		set("LoopController.continue_forever", "false")
	case "TestAction":
		set("ActionProcessor.duration", "0")
	}
	if p, ok := props["HTTPSampler.domain"]; ok && strings.TrimSpace(p.Text()) != "" {
		p.SetText("${__P(oracle.host)}")
		set("HTTPSampler.port", "${__P(oracle.port)}")
		set("HTTPSampler.protocol", "http")
	}
	if p, ok := props["HTTPSampler.port"]; ok && strings.TrimSpace(p.Text()) != "" {
		p.SetText("${__P(oracle.port)}")
	}
	if p, ok := props["HTTPSampler.protocol"]; ok && strings.TrimSpace(p.Text()) != "" {
		p.SetText("http")
	}
	if p, ok := props["HTTPSampler.path"]; ok && absoluteURL.MatchString(p.Text()) {
		p.SetText(absoluteURL.ReplaceAllString(p.Text(), "http://${__P(oracle.host)}:${__P(oracle.port)}"))
	}
	if _, ok := props["HTTPSampler.image_parser"]; ok {
		set("HTTPSampler.image_parser", "false")
	}
	if p, ok := props["HTTPSampler.ipSource"]; ok {
		p.SetText("")
	}
}

// Request lines differ between runs where a plan sends the time or random
// identifiers; those are masked on both sides.
var (
	uuidRE      = regexp.MustCompile(`[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)
	timestampRE = regexp.MustCompile(`\b1[0-9]{9}([0-9]{3})?\b`)
)

func maskRequestLine(s string) string {
	s = uuidRE.ReplaceAllString(s, "UUID")
	s = timestampRE.ReplaceAllString(s, "TIME")
	return boundaryRE.ReplaceAllString(s, "boundary=BOUNDARY")
}

// corpusOraclePlan is one plan of corpus/repos: its file, the folder it runs
// from (its repository's) and the name of its golden.
type corpusOraclePlan struct {
	file, work, golden string
}

func corpusOraclePlans(t *testing.T) []corpusOraclePlan {
	t.Helper()
	root, err := filepath.Abs("../../shared/corpus/repos")
	if err != nil {
		t.Fatal(err)
	}
	var c corpus
	for _, x := range corpora {
		if x.name == "corpus/repos" {
			c = x
		}
	}
	files, work := c.plans(root)
	if len(files) == 0 {
		t.Skipf("no corpus at %s: the corpus oracle needs ../shared beside the clone", root)
	}
	var out []corpusOraclePlan
	for i, f := range files {
		rel, _ := filepath.Rel(root, f)
		name := strings.NewReplacer("/", "__", " ", "_").Replace(strings.TrimSuffix(rel, ".jmx"))
		out = append(out, corpusOraclePlan{file: f, work: work[i], golden: name + ".requests"})
	}
	return out
}

// TestCorpusOracle runs every recorded corpus plan, tamed, through gojm
// against the example target, in a loopback-only network namespace, and
// compares the requests it received with what JMeter 2.13 sent it.
func TestCorpusOracle(t *testing.T) {
	if *recordCorpusJMeter {
		recordCorpusOracle(t)
		return
	}
	if networkUp(t) != "" {
		inLoopbackNamespace(t)
		return
	}
	plans := corpusOraclePlans(t)
	known := corpusOracleDifferences()
	compared := 0
	for _, p := range plans {
		want, err := readRequestLines(filepath.Join(corpusOracleDir, p.golden))
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		compared++
		for i := range want {
			want[i] = jmeter213As56(want[i])
		}
		t.Run(p.golden, func(t *testing.T) {
			got, err := gojmCorpusRequests(t, p)
			if err != nil {
				t.Fatalf("gojm: %v", err)
			}
			diff := firstDifference(got, want)
			reason, isKnown := known[p.golden]
			switch {
			case diff == "" && isKnown:
				t.Errorf("listed as differing (%s) but gojm now sends what JMeter 2.13 sends: remove it from the list", reason)
			case diff != "" && !isKnown:
				t.Errorf("gojm sent %d requests, JMeter 2.13 %d: %s", len(got), len(want), diff)
			}
		})
	}
	if compared == 0 {
		t.Fatalf("no recordings in %s", corpusOracleDir)
	}
	t.Logf("%d corpus plans compared with JMeter 2.13", compared)
}

// jmeter213As56 turns a request JMeter 2.13 sent into what JMeter 5.6
// sends, where the two differ by design and gojm follows 5.6
// (docs/compatibility.md): a body's charset, when the plan names none, is
// UTF-8 since JMeter 5, not HttpClient's ISO-8859-1. (The other change,
// the form Content-Type JMeter added to a POST before 4.1, gojm makes too
// with http.post_add_content_type_if_missing, which the comparison sets.)
//
// The Java implementation's HttpURLConnection adds an Accept header of its
// own, which gojm does not send (docs/compatibility.md, "Request headers").
// A PUT, PATCH or DELETE without arguments has no entity in JMeter 5.6
// (sendEntityData), so no Content-Type; 2.13 sent an empty text entity.
func jmeter213As56(line string) string {
	line = strings.ReplaceAll(line, `"Content-Type: text/plain; charset=ISO-8859-1"`, `"Content-Type: text/plain; charset=UTF-8"`)
	line = javaAccept.ReplaceAllString(line, "$1")
	if m := emptyEntity213.FindStringSubmatch(line); m != nil {
		line = m[1] + m[2]
	}
	return line
}

// javaAccept is HttpURLConnection's Accept header in a request line's
// header list, with the space that separates it from the next.
var javaAccept = regexp.MustCompile(`(\[|" )"Accept: text/html, image/gif, image/jpeg, \*/\*; q=0\.2" ?`)

var emptyEntity213 = regexp.MustCompile(`^((?:PUT|PATCH|DELETE) .*"Content-Length: 0") "Content-Type: text/plain; charset=UTF-8"(.*\] "")$`)

// networkUp names an interface other than the loopback that is up, or is
// "" in a loopback-only network namespace.
func networkUp(t *testing.T) string {
	t.Helper()
	ifs, err := net.Interfaces()
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback == 0 && i.Flags&net.FlagUp != 0 {
			return i.Name
		}
	}
	return ""
}

// inLoopbackNamespace runs TestCorpusOracle again in a network namespace
// that has only the loopback: taming points every server a plan names at
// the local target, but a URL a plan builds from variables or scripts
// could still name a real host, which must not be reached. Where no such
// namespace can be made (unshare needs root), the test skips.
func inLoopbackNamespace(t *testing.T) {
	if os.Getenv("GOJM_CORPUS_ORACLE_NETNS") != "" {
		t.Fatalf("interface %s is up inside the namespace", networkUp(t))
	}
	const inNS = `ip link set lo up && exec "$0" "$@"`
	if out, err := exec.Command("unshare", "-n", "sh", "-c", inNS, "true").CombinedOutput(); err != nil {
		t.Skipf("the corpus oracle runs real plans only in a loopback-only network namespace, and none can be made here (unshare -n: %v: %s); run the tests as root", err, bytes.TrimSpace(out))
	}
	args := []string{"-n", "sh", "-c", inNS, os.Args[0], "-test.run", "^TestCorpusOracle$", "-test.count", "1"}
	if testing.Verbose() {
		args = append(args, "-test.v")
	}
	cmd := exec.Command("unshare", args...)
	cmd.Env = append(os.Environ(), "GOJM_CORPUS_ORACLE_NETNS=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("in a loopback-only network namespace: %v\n%s", err, out)
	}
	t.Logf("in a loopback-only network namespace:\n%s", bytes.TrimSpace(out))
}

// corpusOracleDifferences are the recorded plans where gojm deliberately
// sends something else than JMeter 2.13, with the reason.
func corpusOracleDifferences() map[string]string {
	const missingCSV = "its CSV Data Set's file is not in the repository: JMeter 5.6 stops each thread there, 2.13 read <EOF> and went on"
	return map[string]string{
		"Nekanu__pim-swks_sose2024_rest__jmeter__TestPlan.requests":                                                    "${__jm__NAME__idx}, a loop's index, is JMeter 5's; 2.13 sent the text",
		"plnkrcy__task2__LoadTest.requests":                                                                            "a body with non-ASCII text and no content encoding: JMeter 5.6 encodes it in UTF-8, 2.13 in ISO-8859-1",
		"tag1consulting__drupal-loadtest__loadtest.requests":                                                           missingCSV,
		"NikolaySavenko__transact-etu__load.requests":                                                                  missingCSV,
		"edigonzales__geoserver-benchmarks__benchmark.requests":                                                        missingCSV,
		"eslamlotfy213__JMETER-from-Scratch-on-Live-Apps--Performance-Testing__performance_Testing__Scenario.requests": missingCSV,
	}
}

func firstDifference(got, want []string) string {
	for i := 0; i < len(got) || i < len(want); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("request %d: gojm %q, JMeter %q", i+1, g, w)
		}
	}
	return ""
}

func readRequestLines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if l := sc.Text(); l != "" && !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines, sc.Err()
}

// startOracleTarget starts the example target on the loopback and returns
// it with the properties that point a tamed plan at it.
func startOracleTarget(t *testing.T) (*target.Server, map[string]string) {
	t.Helper()
	srv, host, port := startTarget(t)
	return srv, map[string]string{"oracle.host": host, "oracle.port": port}
}

func receivedLines(srv *target.Server) []string {
	var lines []string
	for _, r := range srv.Recorder.Requests() {
		lines = append(lines, bodilessGET.ReplaceAllString(maskRequestLine(wireLine(r)), "$1$2"))
	}
	return lines
}

// bodilessGET finds the Content-Type of a GET's empty body: a GET whose
// arguments have no names carries them as its body in JMeter 5
// (HttpGetWithEntity), with the body's Content-Type, where 2.13 sent a
// plain GET. Plans saved by JMeter's GUI often hold such an empty
// argument, so the header is left out of both sides' lines.
var bodilessGET = regexp.MustCompile(`^(GET [^ ]* \[.*?)"Content-Type: text/plain; charset=UTF-8" ?(.*\] "")$`)

// gojmCorpusRequests runs a tamed corpus plan from its repository's folder,
// as gojm validate and run do, for at most a minute.
func gojmCorpusRequests(t *testing.T, p corpusOraclePlan) ([]string, error) {
	src, err := os.ReadFile(p.file)
	if err != nil {
		return nil, err
	}
	tamed, err := tamePlan(src)
	if err != nil {
		return nil, err
	}
	srv, props := startOracleTarget(t)
	props["http.post_add_content_type_if_missing"] = "true" // JMeter 2.13's default
	t.Chdir(p.work)
	plan, err := jmx.Read(bytes.NewReader(tamed), p.file, filepath.Dir(p.file))
	if err != nil {
		return nil, err
	}
	compiled, err := Compile(plan, Options{Props: props, SkipUnsupported: true})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := Start(ctx, compiled, &memSink{}, RunOptions{}).Wait(); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("still running after a minute")
	}
	return receivedLines(srv), nil
}

// recordCorpusOracle runs every corpus plan, tamed, through JMeter 2.13
// twice and keeps what the target received when both runs agree.
func recordCorpusOracle(t *testing.T) {
	oracle, err := filepath.Abs("../../shared/oracle/jmeter213")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(oracle); err != nil {
		t.Fatalf("JMeter 2.13: %v", err)
	}
	if up := networkUp(t); up != "" {
		t.Fatalf("interface %s is up: record the corpus oracle inside a loopback-only network namespace (scripts/corpus-oracle.sh)", up)
	}
	plans := corpusOraclePlans(t)
	if err := os.MkdirAll(corpusOracleDir, 0o755); err != nil {
		t.Fatal(err)
	}
	var notRecorded []string
	for _, p := range plans {
		if !strings.Contains(p.golden, *corpusOracleOnly) {
			continue
		}
		lines, why := jmeterCorpusRequests(t, oracle, p)
		if why == "" {
			again, why2 := jmeterCorpusRequests(t, oracle, p)
			switch {
			case why2 != "":
				why = why2
			case strings.Join(again, "\n") != strings.Join(lines, "\n"):
				why = "JMeter's two runs sent different requests (random values or timing)"
			}
		}
		golden := filepath.Join(corpusOracleDir, p.golden)
		if why != "" {
			os.Remove(golden)
			notRecorded = append(notRecorded, p.golden+"\t"+why)
			t.Logf("%s: not recorded: %s", p.golden, why)
			continue
		}
		rel, _ := filepath.Rel(filepath.Dir(p.work), p.file)
		body := fmt.Sprintf("# %s, tamed: what JMeter 2.13 sent (%d requests)\n%s\n", rel, len(lines), strings.Join(lines, "\n"))
		if err := os.WriteFile(golden, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d requests", p.golden, len(lines))
	}
	if *corpusOracleOnly != "" {
		return // the list of plans not recorded covers every plan
	}
	sort.Strings(notRecorded)
	list := "# corpus/repos plans with no JMeter 2.13 recording, and why\n" + strings.Join(notRecorded, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(corpusOracleDir, "not-recorded.tsv"), []byte(list), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d of %d plans recorded", len(plans)-len(notRecorded), len(plans))
}

// jmeterCorpusRequests runs a tamed plan through JMeter 2.13 from a copy of
// its repository (so that its relative data files resolve as they do for
// its users) and returns what the target received, or why it has none.
func jmeterCorpusRequests(t *testing.T, oracle string, p corpusOraclePlan) ([]string, string) {
	src, err := os.ReadFile(p.file)
	if err != nil {
		return nil, err.Error()
	}
	tamed, err := tamePlan(src)
	if err != nil {
		return nil, "the plan is not XML etree reads: " + err.Error()
	}
	tmp := t.TempDir()
	work := filepath.Join(tmp, filepath.Base(p.work))
	if out, err := exec.Command("cp", "-r", p.work, work).CombinedOutput(); err != nil {
		return nil, fmt.Sprintf("copying the repository: %v: %s", err, out)
	}
	rel, _ := filepath.Rel(p.work, p.file)
	planFile := filepath.Join(work, filepath.Dir(rel), ".oracle-"+filepath.Base(rel))
	if err := os.WriteFile(planFile, tamed, 0o644); err != nil {
		return nil, err.Error()
	}
	srv, props := startOracleTarget(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, oracle, "-n", "-t", planFile, "-l", filepath.Join(tmp, "out.jtl"),
		"-j", filepath.Join(tmp, "jmeter.log"),
		"-Joracle.host="+props["oracle.host"], "-Joracle.port="+props["oracle.port"])
	cmd.Dir = work
	out, err := cmd.CombinedOutput()
	switch {
	case ctx.Err() != nil:
		return nil, "JMeter 2.13 still ran after 2 minutes"
	case err != nil:
		return nil, "JMeter 2.13 did not run it: " + lastLine(string(out))
	case bytes.Contains(out, []byte("Error in NonGUIDriver")) || bytes.Contains(out, []byte("Problem loading XML")):
		return nil, "JMeter 2.13 cannot load it: " + loadProblem(string(out))
	}
	lines := receivedLines(srv)
	if len(lines) == 0 {
		return nil, "JMeter 2.13 sent no request to the target"
	}
	return lines, ""
}

// loadProblem is what of JMeter's loading error names the problem: the
// element path XStream gives, or the exception.
func loadProblem(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "path" && f[1] == ":" {
			return "at " + f[2]
		}
	}
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "Error in NonGUIDriver"); i >= 0 {
			l = l[i:]
			if len(l) > 200 {
				l = l[:200]
			}
			return l
		}
	}
	return lastLine(out)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" && !strings.HasPrefix(l, "...") {
			if len(l) > 200 {
				l = l[:200]
			}
			return l
		}
	}
	return "(no output)"
}
