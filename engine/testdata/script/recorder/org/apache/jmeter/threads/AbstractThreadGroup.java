package org.apache.jmeter.threads;

/** Stand-in for JMeter's thread group. */
public class AbstractThreadGroup {
    public String getName() { return "Thread Group"; }
    public int getNumThreads() { return 1; }
    public int getNumberOfThreads() { return 1; }
}
