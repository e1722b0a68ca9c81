package org.apache.jmeter.samplers;

/** Stand-in for JMeter's SampleEvent. */
public class SampleEvent {
    private final SampleResult result;
    public SampleEvent(SampleResult result) { this.result = result; }
    public SampleResult getResult() { return result; }
    public String getThreadGroup() { return "Thread Group"; }
    public String getHostname() { return "localhost"; }
}
