package assert

import "testing"

const storeJSON = `{"store":{"book":[
 {"category":"reference","author":"Nigel Rees","title":"Sayings","price":8.95,"url":"http://a/b"},
 {"category":"fiction","author":"Evelyn Waugh","title":"Sword","price":12.99,"isbn":"0-553"},
 {"category":"fiction","author":"Herman Melville","title":"Moby Dick","price":8,"isbn":"0-395"}],
 "bicycle":{"color":"red","price":19.95}},
 "token":"abc/def","n":null,"big":1e10,"one":1.0,"ok":true,"empty":[]}`

func TestJSONAssertions(t *testing.T) {
	const core = "JSONPathAssertion"
	runAssertCases(t, core, BuildJSON, []assertCase{
		{"exists", storeJSON, []string{"JSON_PATH", "$.token"}, nil, true, ""},
		{"missing leaf", storeJSON, []string{"JSON_PATH", "$.store.nope"}, nil, false, "No results for path: $['store']['nope']"},
		{"missing parent", storeJSON, []string{"JSON_PATH", "$.nope.x"}, nil, false, "Missing property in path $['nope']"},
		{"value equals", storeJSON, []string{"JSON_PATH", "$.store.bicycle.color", "JSONVALIDATION", "true", "ISREGEX", "false", "EXPECTED_VALUE", "red"}, nil, true, ""},
		{"value differs", storeJSON, []string{"JSON_PATH", "$.store.bicycle.color", "JSONVALIDATION", "true", "ISREGEX", "false", "EXPECTED_VALUE", "blue"}, nil, false,
			"Value in json path '$.store.bicycle.color' expected to be 'blue', but found 'red'"},
		{"number types differ", storeJSON, []string{"JSON_PATH", "$.store.book[2].price", "JSONVALIDATION", "true", "ISREGEX", "false", "EXPECTED_VALUE", "8.0"}, nil, false,
			"Value in json path '$.store.book[2].price' expected to be '8.0', but found '8'"},
		{"regex over an array", storeJSON, []string{"JSON_PATH", "$..author", "JSONVALIDATION", "true", "EXPECTED_VALUE", "Herman.*"}, nil, true, ""},
		{"regex fails", storeJSON, []string{"JSON_PATH", "$.store.bicycle.price", "JSONVALIDATION", "true", "EXPECTED_VALUE", "2.*"}, nil, false,
			"Value in json path '$.store.bicycle.price' expected to match regexp '2.*', but it did not match: '19.95'"},
		{"expect null", storeJSON, []string{"JSON_PATH", "$.n", "JSONVALIDATION", "true", "EXPECT_NULL", "true"}, nil, true, ""},
		{"expect null fails", storeJSON, []string{"JSON_PATH", "$.token", "JSONVALIDATION", "true", "EXPECT_NULL", "true"}, nil, false,
			"Value in json path '$.token' expected to be null, but found 'abc/def'"},
		{"inverted", storeJSON, []string{"JSON_PATH", "$.token", "INVERT", "true"}, nil, false, "Failed that JSONPath not exists: $.token"},
		{"inverted passes", storeJSON, []string{"JSON_PATH", "$.nope", "INVERT", "true"}, nil, true, ""},
		{"indefinite empty", storeJSON, []string{"JSON_PATH", "$..nope"}, nil, false,
			"JSONPath '$..nope' is indefinite and the extracted Value is an empty Array. Please use an assertion value, to be sure to get a correct result. Expected value was ''"},
		{"length function", storeJSON, []string{"JSON_PATH", "$.store.book.length()", "JSONVALIDATION", "true", "ISREGEX", "false", "EXPECTED_VALUE", "3"}, nil, true, ""},
		{"empty body", "", []string{"JSON_PATH", "$.a"}, nil, false, "Response was null"},
	})
	const plugin = "com.atlantbh.jmeter.plugins.jsonutils.jsonpathassertion.JSONPathAssertion"
	runAssertCases(t, plugin, BuildPluginJSON, []assertCase{
		{"text equality", storeJSON, []string{"JSON_PATH", "$.store.book[2].price", "JSONVALIDATION", "true", "ISREGEX", "false", "EXPECTED_VALUE", "8"}, nil, true, ""},
		{"differs", storeJSON, []string{"JSON_PATH", "$.store.bicycle.color", "JSONVALIDATION", "true", "ISREGEX", "false", "EXPECTED_VALUE", "blue"}, nil, false,
			"Value expected to be 'blue', but found 'red'"},
		{"indefinite empty is fine", storeJSON, []string{"JSON_PATH", "$..nope"}, nil, true, ""},
		{"YAML", "store:\n  bicycle:\n    color: red\n", []string{"INPUT_FORMAT", "YAML", "JSON_PATH", "$.store.bicycle.color", "JSONVALIDATION", "true",
			"ISREGEX", "false", "EXPECTED_VALUE", "red"}, nil, true, ""},
		{"YAML differs", "store:\n  bicycle:\n    color: red\n", []string{"INPUT_FORMAT", "YAML", "JSON_PATH", "$.store.bicycle.color", "JSONVALIDATION", "true",
			"ISREGEX", "false", "EXPECTED_VALUE", "blue"}, nil, false, "Value expected to be 'blue', but found 'red'"},
	})
}
