package org.apache.jmeter.testelement.property;

/** Stand-in for JMeter's JMeterProperty: a property holding an object. */
public class JMeterProperty {
    final Object v;
    JMeterProperty(Object v) { this.v = v; }
    public Object getObjectValue() { return v; }
}
