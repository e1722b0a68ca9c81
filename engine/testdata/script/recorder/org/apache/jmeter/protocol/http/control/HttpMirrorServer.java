package org.apache.jmeter.protocol.http.control;

/**
 * Stand-in for JMeter's HTTP Mirror Server as the batch plans' scripts use
 * it (new, start, stopServer, getException): it serves nothing, so that a
 * recording opens no port; its text is the one gojm gives it.
 */
public class HttpMirrorServer {
    private final int port;
    public HttpMirrorServer(int port) { this.port = port; }
    public HttpMirrorServer(int port, int maxPoolSize, int maxQueueSize) { this.port = port; }
    public void start() {}
    public void stopServer() {}
    public Exception getException() { return null; }
    public int getPort() { return port; }
    @Override public String toString() { return "HttpMirrorServer[" + port + "]"; }
}
