package org.apache.jmeter.protocol.http.sampler;

import org.apache.jmeter.config.Arguments;
import org.apache.jmeter.protocol.http.control.HeaderManager;
import org.apache.jmeter.protocol.http.util.HTTPArgument;
import org.apache.jmeter.samplers.Sampler;

/** Stand-in for an HTTP Request about to sample: the fields scripts read and change. */
public class HTTPSamplerProxy implements Sampler {
    public String method = "GET", protocol = "", domain = "", port = "", path = "";
    public HeaderManager headerManager;
    public Arguments arguments = new Arguments();
    public String getName() { return "Sampler"; }
    public String toString() { return getName(); }
    public HeaderManager getHeaderManager() { return headerManager; }
    public org.apache.jmeter.protocol.http.control.CookieManager cookieManager;
    public org.apache.jmeter.protocol.http.control.CookieManager getCookieManager() { return cookieManager; }
    public Arguments getArguments() { return arguments; }
    public void addArgument(String name, String value) { arguments.addArgument(new HTTPArgument(name, value)); }
    public void addArgument(String name, String value, String metadata) { arguments.addArgument(new HTTPArgument(name, value, metadata)); }
    public String getMethod() { return method; }
    public void setMethod(String s) { method = s; }
    public String getProtocol() { return protocol == null || protocol.isEmpty() ? "http" : protocol; }
    public void setProtocol(String s) { protocol = s; }
    public String getDomain() { return domain; }
    public void setDomain(String s) { domain = s; }
    public String getPath() { return path; }
    public void setPath(String s) { path = s; }
    public int getPort() {
        try { int p = Integer.parseInt(port.trim()); if (p > 0) return p; } catch (NumberFormatException e) { }
        return "https".equalsIgnoreCase(getProtocol()) ? 443 : 80;
    }
    public void setPort(int p) { port = String.valueOf(p); }
    public java.net.URL getUrl() throws java.net.MalformedURLException {
        String p = path.startsWith("/") ? path : "/" + path;
        int n = getPort();
        String proto = getProtocol().toLowerCase();
        boolean dflt = proto.equals("http") && n == 80 || proto.equals("https") && n == 443;
        return new java.net.URL(proto + "://" + domain + (dflt ? "" : ":" + n) + p);
    }
}
