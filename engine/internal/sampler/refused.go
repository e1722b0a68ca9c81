package sampler

import (
	"github.com/gojm/gojm/engine/internal/element"
	"github.com/gojm/gojm/jmx"
)

// Samplers gojm refuses by name because they need what gojm does not
// have, with what to do instead.
const (
	// WebDriverClass is jmeter-plugins' WebDriver Sampler.
	WebDriverClass = "com.googlecode.jmeter.plugins.webdriver.sampler.WebDriverSampler"
	webDriverWhy   = "the WebDriver Sampler drives a real browser through Selenium from a script run in a JVM; " +
		"run this plan with JMeter and the WebDriver plugin, or record the pages' HTTP requests " +
		"(JMeter's HTTP(S) Test Script Recorder) as HTTP Request samplers, which gojm runs"
	junitWhy = "the JUnit Sampler runs compiled JUnit test classes, which need a JVM; run this plan with JMeter, " +
		"or send the tests' requests with HTTP Request samplers (or a JSR223 Sampler in gojm's script subset)"
)

// BuildWebDriver refuses a WebDriver Sampler.
func BuildWebDriver(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	return refused(c, e, webDriverWhy)
}

// BuildJUnit refuses a JUnit Sampler.
func BuildJUnit(c element.Builder, e *jmx.Element, _ element.InScope) (element.Sampler, error) {
	return refused(c, e, junitWhy)
}

// refused records the refusal; with unsupported elements skipped, the
// sampler makes no sample.
func refused(c element.Builder, e *jmx.Element, why string) (element.Sampler, error) {
	c.Refuse(e, why)
	return element.SamplerFunc(func(_ *element.VU, r *element.Result) { r.None = true }), nil
}
