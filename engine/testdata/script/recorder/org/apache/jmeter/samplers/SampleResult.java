package org.apache.jmeter.samplers;

import java.nio.charset.StandardCharsets;
import java.util.*;
import org.apache.jmeter.assertions.AssertionResult;

/** Stand-in for JMeter's SampleResult with the methods scripts use. */
public class SampleResult {
    public String label = "", code = "", message = "", threadName = "Thread Group 1-1", dataType = "text", contentType = "";
    public String samplerData = "", requestHeaders = "", responseHeaders = "", url = "", redirect = null, encoding = null;
    public boolean success = true, ignore, stopThread, stopTest, stopTestNow, nextLoop;
    public byte[] data = new byte[0];
    public long time, latency, connect, idle, start = 1700000000000L, end = 1700000000000L, bytes, sentBytes;
    public int headersSize;
    public List<SampleResult> subs = new ArrayList<>();
    public List<AssertionResult> assertions = new ArrayList<>();

    public String getResponseDataAsString() { return new String(data, StandardCharsets.UTF_8); }
    public byte[] getResponseData() { return data; }
    public void setResponseData(String s) { data = s.getBytes(StandardCharsets.UTF_8); }
    public void setResponseData(String s, String enc) { data = s.getBytes(StandardCharsets.UTF_8); encoding = enc; }
    public void setResponseData(byte[] b) { data = b; }
    public String getResponseCode() { return code; }
    public void setResponseCode(String s) { code = s; }
    public void setResponseCodeOK() { code = "200"; }
    public boolean isResponseCodeOK() { return "200".equals(code); }
    public String getResponseMessage() { return message; }
    public void setResponseMessage(String s) { message = s; }
    public void setResponseMessageOK() { message = "OK"; }
    public void setResponseOK() { code = "200"; message = "OK"; success = true; }
    public boolean isSuccessful() { return success; }
    public void setSuccessful(boolean b) { success = b; }
    public String getSampleLabel() { return label; }
    public void setSampleLabel(String s) { label = s; }
    public String getThreadName() { return threadName; }
    public long getTime() { return time; }
    public long getLatency() { return latency; }
    public void setLatency(long l) { latency = l; }
    public long getConnectTime() { return connect; }
    public void setConnectTime(long l) { connect = l; }
    public long getIdleTime() { return idle; }
    public long getStartTime() { return start; }
    public long getEndTime() { return end; }
    public long getTimeStamp() { return start; }
    public int getBytes() { return (int) bytes; }
    public long getBytesAsLong() { return bytes; }
    public void setBytes(long b) { bytes = b; }
    public void setBytes(int b) { bytes = b; }
    public long getSentBytes() { return sentBytes; }
    public void setSentBytes(long b) { sentBytes = b; }
    public int getHeadersSize() { return headersSize; }
    public long getBodySize() { return data.length; }
    public String getResponseHeaders() { return responseHeaders; }
    public void setResponseHeaders(String s) { responseHeaders = s; }
    public String getRequestHeaders() { return requestHeaders; }
    public void setRequestHeaders(String s) { requestHeaders = s; }
    public String getSamplerData() { return samplerData; }
    public void setSamplerData(String s) { samplerData = s; }
    public String getUrlAsString() { return url; }
    public java.net.URL getURL() { try { return url.isEmpty() ? null : new java.net.URL(url); } catch (Exception e) { return null; } }
    public String getDataType() { return dataType; }
    public void setDataType(String s) { dataType = s; }
    public String getContentType() { return contentType; }
    public void setContentType(String s) { contentType = s; }
    public String getMediaType() { int i = contentType.indexOf(';'); return (i < 0 ? contentType : contentType.substring(0, i)).trim(); }
    public String getDataEncodingWithDefault() { return encoding == null ? "ISO-8859-1" : encoding; }
    public String getRedirectLocation() { return redirect; }
    public SampleResult[] getSubResults() { return subs.toArray(new SampleResult[0]); }
    public AssertionResult[] getAssertionResults() { return assertions.toArray(new AssertionResult[0]); }
    public String getFirstAssertionFailureMessage() {
        for (AssertionResult a : assertions) {
            if ((a.isFailure() || a.isError()) && a.getFailureMessage() != null && !a.getFailureMessage().isEmpty()) return a.getFailureMessage();
        }
        return null;
    }
    public int getErrorCount() { return success ? 0 : 1; }
    public int getSampleCount() { return 1; }
    public void setIgnore() { ignore = true; }
    public boolean isIgnore() { return ignore; }
    public void setStopThread(boolean b) { stopThread = b; }
    public void setStopTest(boolean b) { stopTest = b; }
    public void setStopTestNow(boolean b) { stopTestNow = b; }
    public void setStartNextThreadLoop(boolean b) { nextLoop = b; }
    public boolean isStopThread() { return stopThread; }
    public boolean isStopTest() { return stopTest; }
    public void sampleStart() {}
    public void sampleEnd() {}
    public void latencyEnd() {}
    public String toString() { return label; }
}
