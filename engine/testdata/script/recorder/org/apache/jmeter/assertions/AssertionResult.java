package org.apache.jmeter.assertions;

/** Stand-in for JMeter's AssertionResult. */
public class AssertionResult {
    private final String name;
    private boolean failure, error;
    private String failureMessage;
    public AssertionResult(String name) { this.name = name; }
    public String getName() { return name; }
    public boolean isFailure() { return failure; }
    public boolean isError() { return error; }
    public String getFailureMessage() { return failureMessage; }
    public void setFailure(boolean b) { failure = b; }
    public void setError(boolean b) { error = b; }
    public void setFailureMessage(String s) { failureMessage = s; }
    public void setResultForFailure(String s) { failure = true; failureMessage = s; }
    public String toString() { return name; }
}
