package org.apache.jmeter.samplers;

/** A sampler named "Sampler". */
public class StandInSampler implements Sampler {
    public String getName() { return "Sampler"; }
    public java.net.URL getUrl() { return null; }
    public String toString() { return getName(); }
    public org.apache.jmeter.protocol.http.control.CookieManager cookieManager;
    public org.apache.jmeter.protocol.http.control.CookieManager getCookieManager() { return cookieManager; }
}
