package engine

import (
	"fmt"
	"slices"
	"testing"
)

// The request headers an element reads of a sample are the ones that
// sample sent, made when first read: by a Regular Expression Extractor
// on the sample, by a script reading prev in the next sampler's
// pre-processor, and not those of a later sample.
func TestRequestHeadersReadAfterTheSample(t *testing.T) {
	which := func(v string) xel {
		return xel(fmt.Sprintf(`<HeaderManager guiclass="HeaderPanel" testclass="HeaderManager" testname="h" enabled="true">
  <collectionProp name="HeaderManager.headers"><elementProp name="" elementType="Header">
    <stringProp name="Header.name">X-Which</stringProp><stringProp name="Header.value">%s</stringProp>
  </elementProp></collectionProp></HeaderManager><hashTree/>`, v))
	}
	extract := xel(`<RegexExtractor guiclass="RegexExtractorGui" testclass="RegexExtractor" testname="x" enabled="true">
  <stringProp name="RegexExtractor.useHeaders">request_headers</stringProp>
  <stringProp name="RegexExtractor.refname">sent</stringProp>
  <stringProp name="RegexExtractor.regex">X-Which: (\w+)</stringProp>
  <stringProp name="RegexExtractor.template">$1$</stringProp>
  <stringProp name="RegexExtractor.default">none</stringProp>
  <stringProp name="RegexExtractor.match_number">1</stringProp>
</RegexExtractor><hashTree/>`)
	prev := xel(`<JSR223PreProcessor guiclass="TestBeanGUI" testclass="JSR223PreProcessor" testname="prev" enabled="true">
  <stringProp name="scriptLanguage">groovy</stringProp>
  <stringProp name="script">vars.put("prev", prev.getRequestHeaders().contains("X-Which: a") ? "a" : "not a")</stringProp>
</JSR223PreProcessor><hashTree/>`)
	got := bodies(t, writePlan(t, true, nil, tgEl("A", 1, 2,
		postEl("/a", "${sent}", which("a"), extract),
		postEl("/b", "${sent}|${prev}", which("b"), prev),
		postEl("/c", "${sent}|${prev}", which("c"), extract, prev))))
	for path, want := range map[string][]string{
		"/a": {"${sent}", "c"}, // then what /c sent
		"/b": {"a|a", "a|a"},
		"/c": {"a|not a", "a|not a"}, // prev is /b, sent is read after the sample
	} {
		if !slices.Equal(got[path], want) {
			t.Errorf("%s received %q, want %q", path, got[path], want)
		}
	}
}
