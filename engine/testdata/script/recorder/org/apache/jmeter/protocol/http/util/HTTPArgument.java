package org.apache.jmeter.protocol.http.util;

import org.apache.jmeter.config.Argument;

/** Stand-in for JMeter's HTTPArgument: always encoded, metadata "=". */
public class HTTPArgument extends Argument {
    private boolean alwaysEncoded = true;
    private String contentType = "text/plain";
    public HTTPArgument(String name, String value) { super(name, value, "="); }
    public HTTPArgument(String name, String value, String metadata) { super(name, value, metadata); }
    public HTTPArgument(String name, String value, boolean alreadyEncoded) { super(name, value, "="); }
    public boolean isAlwaysEncoded() { return alwaysEncoded; }
    public void setAlwaysEncoded(boolean b) { alwaysEncoded = b; }
    public String getContentType() { return contentType; }
    public void setContentType(String s) { contentType = s; }
}
