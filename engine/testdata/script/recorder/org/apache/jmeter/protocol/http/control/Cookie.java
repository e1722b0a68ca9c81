package org.apache.jmeter.protocol.http.control;

/** Stand-in for JMeter's Cookie: its fields, getters and toString. */
public class Cookie {
    String name, value, domain, path;
    boolean secure, pathSpecified, domainSpecified;
    long expires;
    public Cookie() { this("", "", "", "", false, 0, false, false); }
    public Cookie(String name, String value, String domain, String path, boolean secure, long expires) {
        this(name, value, domain, path, secure, expires, true, true);
    }
    public Cookie(String name, String value, String domain, String path, boolean secure, long expires, boolean hasPath, boolean hasDomain) {
        this.name = name; this.value = value; this.domain = domain; this.path = path; this.secure = secure; this.expires = expires;
        this.pathSpecified = hasPath; this.domainSpecified = hasDomain;
    }
    public String getName() { return name; }
    public String getValue() { return value; }
    public void setValue(String v) { value = v; }
    public String getDomain() { return domain; }
    public String getPath() { return path; }
    public boolean getSecure() { return secure; }
    public long getExpires() { return expires; }
    public long getExpiresMillis() { return expires * 1000; }
    public boolean isPathSpecified() { return pathSpecified; }
    public boolean isDomainSpecified() { return domainSpecified; }
    public String toString() {
        return domain + "\tTRUE\t" + path + "\t" + (secure ? "TRUE" : "FALSE") + "\t" + expires + "\t" + name + "\t" + value;
    }
}
