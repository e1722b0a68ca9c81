// Package extract holds JMeter's post-processors that take values out of
// a sample into variables: the Regular Expression and Boundary Extractors,
// the JSON Extractor and jp@gc's JSON Path Extractor, the CSS Selector
// Extractor and the XPath and XPath2 Extractors. Each leaves its variables
// as JMeter does (name, name_1…, name_matchNr, groups, defaults), copied
// so that none aliases a response body.
//
// It imports element, response, jmx, report, cascadia and the XPath
// libraries response uses.
package extract
