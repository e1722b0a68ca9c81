package org.apache.jmeter.protocol.http.control;

import java.util.ArrayList;
import java.util.List;
import org.apache.jmeter.testelement.property.CollectionProperty;

/** Stand-in for JMeter's CookieManager: its list of cookies, as 5.6's add, remove, get and clear change it. */
public class CookieManager {
    final List<Cookie> cookies = new ArrayList<>();
    public int getCookieCount() { return cookies.size(); }
    public Cookie get(int i) { return cookies.get(i); }
    public void remove(int i) { cookies.remove(i); }
    public void clear() { cookies.clear(); }
    public void add(Cookie c) {
        cookies.removeIf(o -> o.getName().equals(c.getName()) && o.getPath().equals(c.getPath()) && o.getDomain().equals(c.getDomain()));
        if (c.getValue() != null && !c.getValue().isEmpty()) cookies.add(c);
    }
    public CollectionProperty getCookies() { return new CollectionProperty(cookies); }
    public List<Cookie> list() { return cookies; }
}
