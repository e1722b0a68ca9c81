// Run from a file: the JSR223 Assertion of flow.jmx.
def got = vars.get("got")
if (got != vars.get("item")) {
    AssertionResult.setFailure(true)
    AssertionResult.setFailureMessage("asked for ${vars.get('item')}, got ${got}")
}
