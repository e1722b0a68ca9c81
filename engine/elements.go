package engine

import (
	"github.com/gojm/gojm/engine/internal/assert"
	"github.com/gojm/gojm/engine/internal/config"
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/engine/internal/extract"
	"github.com/gojm/gojm/engine/internal/function"
	"github.com/gojm/gojm/engine/internal/group"
	"github.com/gojm/gojm/engine/internal/httpsampler"
	"github.com/gojm/gojm/engine/internal/jdbc"
	"github.com/gojm/gojm/engine/internal/mqtt"
	"github.com/gojm/gojm/engine/internal/reporters"
	"github.com/gojm/gojm/engine/internal/sampler"
	"github.com/gojm/gojm/engine/internal/scripting"
	"github.com/gojm/gojm/engine/internal/tcp"
	"github.com/gojm/gojm/engine/internal/thread"
	"github.com/gojm/gojm/engine/internal/timer"
	"github.com/gojm/gojm/engine/internal/udp"
	"github.com/gojm/gojm/engine/internal/ws"
	"github.com/gojm/gojm/jmx"
)

// kind is the role an element plays in a plan.
type kind uint8

const (
	kUnsupported kind = iota
	kIgnored          // no effect on what is sent or measured (GUI-only, non-test)
	kTestPlan
	kThreadGroup
	kController
	kSampler
	kConfig // read by the samplers in scope (HTTP defaults, headers, cookies…)
	kTimer
	kPre
	kPost
	kAssertion
	kListener
)

// elementDef says how gojm runs one test class.
type elementDef struct {
	kind kind
	note string // why an ignored element is ignored
	// reportOnly marks an ignored element whose output the user expects
	// (mail, a metrics endpoint): ignored with a warning, not just a note.
	reportOnly bool
	// readsPrevious marks an element that reads the response of the
	// sample before its sampler's (the HTML Link Parser): every sampler of
	// the plan then keeps its response, as JMeter always does.
	readsPrevious bool
	// Exactly one of these is set, by kind (configs and listeners are read
	// by the compiler itself).
	sampler   func(c element.Builder, e *jmx.Element, sc element.InScope) (element.Sampler, error)
	timer     func(c element.Builder, e *jmx.Element) (element.Timer, error)
	pre       func(c element.Builder, e *jmx.Element) (element.PreProcessor, error)
	post      func(c element.Builder, e *jmx.Element) (element.PostProcessor, error)
	assertion func(c element.Builder, e *jmx.Element) (element.Assertion, error)

	// listener builds an element that sees each sample in its scope once
	// the assertions are done (the Result Status Action Handler).
	listener func(c element.Builder, e *jmx.Element) (element.SampleListener, error)
	// output registers a listener that writes or draws results (a Result
	// Collector, a Backend Listener) and reports whether it has output.
	output func(c *compiler, e *jmx.Element, depth int) bool

	// ctl fills in a controller's compiled form (how one virtual user's
	// instance is made); the compiler has compiled its children already.
	ctl func(c element.Builder, e *jmx.Element, d *thread.ControllerDef) error
	// transaction marks a Transaction Controller, which the levels below
	// it know of before they compile (it listens to their samples).
	transaction bool
	// expand gives the children a controller runs when they are not its
	// own (a Module Controller's target, an Include Controller's file);
	// done is called once they are compiled.
	expand func(c *compiler, e *jmx.Element, depth int) (kids []*jmx.Element, done func(), err error)
	// branches compiles a sampler whose children run as branches at once
	// (the Parallel Controller): it needs the levels above it.
	branches func(c *compiler, e *jmx.Element, levels []level, depth int) *thread.SamplerDef
	// iteration builds a config element that its controller tells when an
	// iteration starts (JMeter's LoopIterationListener).
	iteration func(c element.Builder, e *jmx.Element) (element.IterationListener, error)
	// variables reads an element whose values the run sets at its start
	// (user-defined variables).
	variables func(c *compiler, e *jmx.Element)
	// users reads a config element that decides what a group's users
	// keep between iterations (a Cookie Manager: a cookie jar).
	users func(c element.Builder, e *jmx.Element, g *group.Group)

	// phase is when a thread group runs; model, when set, gives it a
	// schedule of its own (package group).
	phase group.Phase
	model func(c element.Builder, e *jmx.Element, g *group.Group) (group.Model, error)
}

// functions is the table of JMeter functions gojm runs, by name, with
// JMeter's argument counts: the function package's and those that belong
// to another family. A ${__name(…)} call of any other function is refused
// when the plan is compiled.
var functions = function.Table(map[string]function.Def{
	"__groovy":      {Min: 1, Max: 2, Build: scripting.Groovy},
	"__BeanShell":   {Min: 1, Max: 2, Build: scripting.BeanShell},
	"__tstFeedback": {Min: 2, Max: 4, Build: timer.TSTFeedback}, // the Throughput Shaping Timer's feedback
})

// Test classes of the thread groups with a schedule of their own.
const (
	ultimateClass    = "kg.apc.jmeter.threads.UltimateThreadGroup"
	steppingClass    = "kg.apc.jmeter.threads.SteppingThreadGroup"
	concurrencyClass = "com.blazemeter.jmeter.threads.concurrency.ConcurrencyThreadGroup"
	arrivalsClass    = "com.blazemeter.jmeter.threads.arrivals.ArrivalsThreadGroup"
	freeFormClass    = "com.blazemeter.jmeter.threads.arrivals.FreeFormArrivalsThreadGroup"
	openModelClass   = "OpenModelThreadGroup"
)

// parallelClass is BlazeMeter's Parallel Controller, a sampler whose
// children run at once.
const parallelClass = "com.blazemeter.jmeter.controller.ParallelSampler"

// webDriverConfig is why a WebDriver browser configuration is ignored.
const webDriverConfig = "a browser for WebDriver Samplers, which gojm refuses"

const guiOnly = "GUI-only listener: draws in JMeter's window, records nothing headless"

// reportsOnly ends the note of an element that only reports.
const reportsOnly = "the plan runs without it, which changes nothing sent or measured"

// elements is the one table of every test class gojm knows, keyed by the
// testclass attribute. Anything not here is refused by name. The compiler
// reads it through its own field, so that builders that compile a subtree
// (a Parallel Controller's branches) do not make an initialization cycle.
var elements = map[string]elementDef{
	"TestPlan":         {kind: kTestPlan},
	"ThreadGroup":      {kind: kThreadGroup, phase: group.Main},
	"SetupThreadGroup": {kind: kThreadGroup, phase: group.SetUp},
	"PostThreadGroup":  {kind: kThreadGroup, phase: group.TearDown},
	// Thread groups with a schedule of their own.
	ultimateClass:    {kind: kThreadGroup, model: group.BuildUltimate},
	steppingClass:    {kind: kThreadGroup, model: group.BuildStepping},
	concurrencyClass: {kind: kThreadGroup, model: group.BuildConcurrency},
	arrivalsClass:    {kind: kThreadGroup, model: group.BuildArrivals},
	freeFormClass:    {kind: kThreadGroup, model: group.BuildFreeForm},
	openModelClass:   {kind: kThreadGroup, model: group.BuildOpenModel},

	"GenericController":         {kind: kController, ctl: thread.BuildSimple},
	"RecordingController":       {kind: kController, ctl: thread.BuildSimple},
	"TestFragmentController":    {kind: kController, ctl: thread.BuildSimple},
	"IncludeController":         {kind: kController, ctl: thread.BuildSimple, expand: includedChildren}, // jmx inlined its file
	"ModuleController":          {kind: kController, ctl: thread.BuildSimple, expand: moduleChildren},   // its target compiled in place
	"LoopController":            {kind: kController, ctl: thread.BuildLoop},
	"WhileController":           {kind: kController, ctl: thread.BuildWhile},
	"IfController":              {kind: kController, ctl: thread.BuildIf},
	"TransactionController":     {kind: kController, ctl: thread.BuildTransaction, transaction: true},
	"OnceOnlyController":        {kind: kController, ctl: thread.BuildOnce},
	"InterleaveControl":         {kind: kController, ctl: thread.BuildInterleave},
	"RandomController":          {kind: kController, ctl: thread.BuildRandom},
	"RandomOrderController":     {kind: kController, ctl: thread.BuildRandomOrder},
	"ThroughputController":      {kind: kController, ctl: thread.BuildThroughput},
	"RunTime":                   {kind: kController, ctl: thread.BuildRuntime},
	"ForeachController":         {kind: kController, ctl: thread.BuildForeach},
	"SwitchController":          {kind: kController, ctl: thread.BuildSwitch},
	"CriticalSectionController": {kind: kController, ctl: thread.BuildCritical},

	"TestAction":  {kind: kSampler, sampler: sampler.BuildFlowControl},
	"JavaSampler": {kind: kSampler, sampler: sampler.BuildJava},

	"TCPSampler": {kind: kSampler, sampler: tcp.Build}, // with the TCP Sampler Config, a ConfigTestElement

	"HTTPSamplerProxy": {kind: kSampler, sampler: httpsampler.Build},
	"HTTPSampler":      {kind: kSampler, sampler: httpsampler.Build},
	"HTTPSampler2":     {kind: kSampler, sampler: httpsampler.Build},
	// BlazeMeter's HTTP/2 Sampler and jp@gc's Parallel HTTP Requests
	"com.blazemeter.jmeter.http2.sampler.HTTP2Sampler": {kind: kSampler, sampler: httpsampler.BuildHTTP2},
	"com.blazemeter.jmeter.http.ParallelHTTPSampler":   {kind: kSampler, sampler: httpsampler.BuildParallel},
	"DebugSampler": {kind: kSampler, sampler: sampler.BuildDebug},

	// JDBC: the configuration is read by the elements that name its pool.
	jdbc.ConfigClass:    {kind: kConfig},
	"JDBCSampler":       {kind: kSampler, sampler: jdbc.BuildSampler},
	"JDBCPreProcessor":  {kind: kPre, pre: jdbc.BuildPre},
	"JDBCPostProcessor": {kind: kPost, post: jdbc.BuildPost},

	"ConfigTestElement": {kind: kConfig},
	"JavaConfig":        {kind: kConfig}, // Java Request Defaults, read by the Java Request
	"HeaderManager":     {kind: kConfig},
	"CookieManager":     {kind: kConfig, users: group.CookieUsers},
	"AuthManager":       {kind: kConfig}, // the configs are read by the samplers in their scope
	"DNSCacheManager":   {kind: kConfig},
	"CacheManager":      {kind: kConfig},
	"Arguments":         {kind: kConfig, variables: argumentsAtStart}, // user-defined variables

	"CSVDataSet":           {kind: kConfig, iteration: config.BuildCSVDataSet},
	"CounterConfig":        {kind: kConfig, iteration: config.BuildCounter},
	"RandomVariableConfig": {kind: kConfig, iteration: config.BuildRandomVariable},
	"UserParameters":       {kind: kPre, pre: config.BuildUserParameters},

	// The HTTP modifiers: pre-processors that change the HTTP Request they run before.
	"RegExUserParameters":   {kind: kPre, pre: httpsampler.BuildRegexUserParameters},
	"AnchorModifier":        {kind: kPre, pre: httpsampler.BuildLinkParser, readsPrevious: true},   // HTML Link Parser
	"URLRewritingModifier":  {kind: kPre, pre: httpsampler.BuildURLRewriting, readsPrevious: true}, // HTTP URL Re-writing Modifier
	"ParamModifier":         {kind: kPre, pre: httpsampler.BuildRemoved},                           // HTML Parameter Mask: refused, gone from JMeter
	"UserParameterModifier": {kind: kPre, pre: httpsampler.BuildRemoved},                           // HTTP User Parameter Modifier: refused, gone from JMeter

	"ConstantTimer":           {kind: kTimer, timer: timer.BuildConstant},
	"UniformRandomTimer":      {kind: kTimer, timer: timer.BuildUniform},
	"GaussianRandomTimer":     {kind: kTimer, timer: timer.BuildGaussian},
	"PoissonRandomTimer":      {kind: kTimer, timer: timer.BuildPoisson},
	"ConstantThroughputTimer": {kind: kTimer, timer: timer.BuildConstantThroughput},
	"PreciseThroughputTimer":  {kind: kTimer, timer: timer.BuildPreciseThroughput},
	"SyncTimer":               {kind: kTimer, timer: timer.BuildSynchronizing},

	"RegexExtractor":    {kind: kPost, post: extract.BuildRegex},
	"BoundaryExtractor": {kind: kPost, post: extract.BuildBoundary},
	"JSONPostProcessor": {kind: kPost, post: extract.BuildJSON},
	"HtmlExtractor":     {kind: kPost, post: extract.BuildCSS},
	"XPathExtractor":    {kind: kPost, post: extract.BuildXPath},
	"XPath2Extractor":   {kind: kPost, post: extract.BuildXPath2},
	"DebugPostProcessor": {kind: kIgnored, note: "a debugging aid: JMeter appends a sub-sample dumping the variables " +
		"(stretching the sample's time and bytes); gojm leaves the sample as it is"},
	"com.atlantbh.jmeter.plugins.jsonutils.jsonpathextractor.JSONPathExtractor": {kind: kPost, post: extract.BuildPluginJSON},

	"ResponseAssertion": {kind: kAssertion, assertion: assert.BuildResponse},
	"DurationAssertion": {kind: kAssertion, assertion: assert.BuildDuration},
	"SizeAssertion":     {kind: kAssertion, assertion: assert.BuildSize},
	"MD5HexAssertion":   {kind: kAssertion, assertion: assert.BuildMD5},
	"CompareAssertion":  {kind: kAssertion, assertion: assert.BuildCompare},
	"XMLAssertion":      {kind: kAssertion, assertion: assert.BuildXML},
	"JSONPathAssertion": {kind: kAssertion, assertion: assert.BuildJSON},
	"XPathAssertion":    {kind: kAssertion, assertion: assert.BuildXPath},
	"XPath2Assertion":   {kind: kAssertion, assertion: assert.BuildXPath2},
	"com.atlantbh.jmeter.plugins.jsonutils.jsonpathassertion.JSONPathAssertion": {kind: kAssertion, assertion: assert.BuildPluginJSON},

	// Script elements.
	"JSR223Sampler":          {kind: kSampler, sampler: scripting.BuildSampler},
	"BeanShellSampler":       {kind: kSampler, sampler: scripting.BuildSampler},
	"BSFSampler":             {kind: kSampler, sampler: scripting.BuildSampler},
	"JSR223PreProcessor":     {kind: kPre, pre: scripting.BuildPre},
	"BeanShellPreProcessor":  {kind: kPre, pre: scripting.BuildPre},
	"BSFPreProcessor":        {kind: kPre, pre: scripting.BuildPre},
	"JSR223PostProcessor":    {kind: kPost, post: scripting.BuildPost},
	"BeanShellPostProcessor": {kind: kPost, post: scripting.BuildPost},
	"BSFPostProcessor":       {kind: kPost, post: scripting.BuildPost},
	"JSR223Assertion":        {kind: kAssertion, assertion: scripting.BuildAssertion},
	"BeanShellAssertion":     {kind: kAssertion, assertion: scripting.BuildAssertion},
	"BSFAssertion":           {kind: kAssertion, assertion: scripting.BuildAssertion},
	"JSR223Timer":            {kind: kTimer, timer: scripting.BuildTimer},
	"BeanShellTimer":         {kind: kTimer, timer: scripting.BuildTimer},
	"BSFTimer":               {kind: kTimer, timer: scripting.BuildTimer},
	"JSR223Listener":         {kind: kListener, listener: scripting.BuildListener},
	"BeanShellListener":      {kind: kListener, listener: scripting.BuildListener},
	"BSFListener":            {kind: kListener, listener: scripting.BuildListener},

	"ResultCollector":   {kind: kListener, output: resultCollector},
	"BackendListener":   {kind: kListener, output: backendListener},            // the InfluxDB client only
	"ResultAction":      {kind: kListener, listener: thread.BuildResultAction}, // Result Status Action Handler
	"ResultSaver":       {kind: kListener, listener: reporters.BuildSaver},     // Save Responses to a file, inside the output folder
	"Summariser":        {kind: kIgnored, note: "gojm always prints the summariser lines"},
	"WorkBench":         {kind: kIgnored, note: "the WorkBench is not part of a test"},
	"ProxyControl":      {kind: kIgnored, note: "the recording proxy is a GUI tool"},
	"HttpMirrorControl": {kind: kIgnored, note: "JMeter starts the HTTP Mirror Server from its window only, never in a test run"},

	// jmeter-plugins' graphs are Result Collectors: headless they write
	// their results file when they have one, and otherwise only draw.
	"kg.apc.jmeter.vizualizers.CorrectedResultCollector": {kind: kListener, output: resultCollector},
	"kg.apc.jmeter.vizualizers.CompositeResultCollector": {kind: kListener, output: resultCollector},
	// jmeter-plugins reporters and monitors.
	"kg.apc.jmeter.reporters.AutoStop": {kind: kIgnored, note: "AutoStop's criteria are not applied: they will not stop the run " +
		"(gojm's thresholds can stop a run early)"},
	"kg.apc.jmeter.reporters.ConsoleStatusLogger":             {kind: kIgnored, note: "gojm prints its own summary and progress lines"},
	"kg.apc.jmeter.reporters.FlexibleFileWriter":              {kind: kIgnored, note: "its custom-format file is not written: use a results file (JTL)"},
	"kg.apc.jmeter.reporters.LoadosophiaUploader":             {kind: kIgnored, note: "uploads results to BlazeMeter's online service: never done"},
	"kg.apc.jmeter.perfmon.PerfMonCollector":                  {kind: kIgnored, note: "server metrics from PerfMon agents are not collected (gojm --watch watches local processes)"},
	"kg.apc.jmeter.jmxmon.JMXMonCollector":                    {kind: kIgnored, note: "JMX metrics are not collected"},
	"kg.apc.jmeter.dbmon.DbMonCollector":                      {kind: kIgnored, note: "database metrics are not collected"},
	"kg.apc.jmeter.listener.GraphsGeneratorListener":          {kind: kIgnored, note: "its graphs are not generated: gojm report draws charts from the results"},
	"com.blazemeter.jmeter.reporters.FlushingResultCollector": {kind: kIgnored, note: guiOnly},
	"MailerResultCollector":                                   {kind: kIgnored, reportOnly: true, note: "the Mailer Visualizer's e-mails are not sent; " + reportsOnly},
	"com.github.johrstrom.listener.PrometheusListener": {kind: kIgnored, reportOnly: true,
		note: "the Prometheus Listener's metrics are not served (gojm --prometheus serves its own); " + reportsOnly},
	"com.github.johrstrom.config.PrometheusMetricsConfig": {kind: kIgnored, reportOnly: true,
		note: "the Prometheus Listener's metrics are not served (gojm --prometheus serves its own); " + reportsOnly},

	// jmeter-plugins samplers, controllers and timers.
	sampler.DummyClass: {kind: kSampler, sampler: sampler.BuildDummy},
	"kg.apc.jmeter.control.sampler.SetVariablesAction": {kind: kSampler, sampler: sampler.BuildSetVariables},
	"kg.apc.jmeter.control.ParameterizedController":    {kind: kController, ctl: thread.BuildParameterized},
	thread.WeightedClass:                               {kind: kController, ctl: thread.BuildWeighted}, // BlazeMeter's Weighted Switch Controller
	parallelClass:                                      {kind: kSampler, branches: buildParallel},
	udp.Class:                                          {kind: kSampler, sampler: udp.Build},

	// Luminis' WebSocket samplers; the frame filters are read by the
	// samplers in their scope.
	ws.OpenClass:       {kind: kSampler, sampler: ws.Build},
	ws.RequestClass:    {kind: kSampler, sampler: ws.Build},
	ws.WriteClass:      {kind: kSampler, sampler: ws.Build},
	ws.ReadClass:       {kind: kSampler, sampler: ws.Build},
	ws.PingClass:       {kind: kSampler, sampler: ws.Build},
	ws.CloseClass:      {kind: kSampler, sampler: ws.Build},
	ws.PingFilterClass: {kind: kConfig},
	// xmeter's (emqx's) MQTT samplers.
	mqtt.ConnectClass:    {kind: kSampler, sampler: mqtt.BuildConnect},
	mqtt.PubClass:        {kind: kSampler, sampler: mqtt.BuildPub},
	mqtt.SubClass:        {kind: kSampler, sampler: mqtt.BuildSub},
	mqtt.DisconnectClass: {kind: kSampler, sampler: mqtt.BuildDisconnect},
	ws.TextFilterClass:   {kind: kConfig},
	ws.BinaryFilterClass: {kind: kConfig},
	"kg.apc.jmeter.timers.VariableThroughputTimer": {kind: kTimer, timer: timer.BuildShaping},

	// Refused by name, with what to do: they need a browser or a JVM.
	sampler.WebDriverClass: {kind: kSampler, sampler: sampler.BuildWebDriver},
	"JUnitSampler":         {kind: kSampler, sampler: sampler.BuildJUnit},
	"com.googlecode.jmeter.plugins.webdriver.config.ChromeDriverConfig":           {kind: kIgnored, note: webDriverConfig},
	"com.googlecode.jmeter.plugins.webdriver.config.FirefoxDriverConfig":          {kind: kIgnored, note: webDriverConfig},
	"com.googlecode.jmeter.plugins.webdriver.config.InternetExplorerDriverConfig": {kind: kIgnored, note: webDriverConfig},
	"com.googlecode.jmeter.plugins.webdriver.config.RemoteDriverConfig":           {kind: kIgnored, note: webDriverConfig},
}

// lookup returns the definition of an element's test class.
func (c *compiler) lookup(e *jmx.Element) (elementDef, bool) {
	d, ok := c.defs[e.Class]
	return d, ok
}
