package org.apache.jmeter.protocol.http.control;

/** Stand-in for JMeter's Header: a name and a value. */
public class Header {
    private String name, value;
    public Header() { this("", ""); }
    public Header(String name, String value) { this.name = name; this.value = value; }
    public String getName() { return name; }
    public void setName(String n) { name = n; }
    public String getValue() { return value; }
    public void setValue(String v) { value = v; }
    public String toString() { return name + "\t" + value; }
}
