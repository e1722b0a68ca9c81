package org.apache.jmeter.threads;

/** Stand-in for JMeter's JMeterThread: its name and number, and stop(). */
public class JMeterThread {
    public static boolean stopped;
    public String getThreadName() { return "Thread Group 1-1"; }
    public int getThreadNum() { return 0; }
    public void stop() { stopped = true; }
    public String toString() { return getThreadName(); }
}
