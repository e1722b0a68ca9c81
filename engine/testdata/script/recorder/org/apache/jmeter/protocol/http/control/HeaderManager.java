package org.apache.jmeter.protocol.http.control;

import java.util.*;

/** Stand-in for JMeter's HeaderManager with the methods scripts use. */
public class HeaderManager {
    private final List<Header> headers = new ArrayList<>();
    public void add(Header h) { headers.add(h); }
    public void add() { headers.add(new Header()); }
    public void remove(int index) { headers.remove(index); }
    public int size() { return headers.size(); }
    public Header get(int i) { return headers.get(i); }
    public Header getHeader(int i) { return headers.get(i); }
    public void clear() { headers.clear(); }
    public Header getFirstHeaderNamed(String name) {
        for (Header h : headers) if (h.getName().equalsIgnoreCase(name)) return h;
        return null;
    }
    public void removeHeaderNamed(String name) {
        headers.removeIf(h -> h.getName().equalsIgnoreCase(name));
    }
    public List<Header> list() { return headers; }
    public String toString() { return "HTTP Header Manager"; }
}
