package org.apache.jmeter.config;

/** Stand-in for JMeter's Argument: name, value and metadata. */
public class Argument {
    private String name, value, metadata;
    public Argument() { this("", "", null); }
    public Argument(String name, String value) { this(name, value, null); }
    public Argument(String name, String value, String metadata) { this.name = name; this.value = value; this.metadata = metadata; }
    public String getName() { return name; }
    public void setName(String n) { name = n; }
    public String getValue() { return value; }
    public void setValue(String v) { value = v; }
    public String getMetaData() { return metadata; }
    public void setMetaData(String m) { metadata = m; }
    public String toString() { return name + metadata + value; }
}
