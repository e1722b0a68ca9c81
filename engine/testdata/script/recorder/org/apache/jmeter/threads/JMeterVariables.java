package org.apache.jmeter.threads;

import java.util.*;

/** Stand-in for JMeter's JMeterVariables with the same method signatures. */
public class JMeterVariables {
    private final Map<String, Object> variables = new LinkedHashMap<>();
    public int iteration = 1;

    public String getThreadName() { return "Thread Group 1-1"; }
    public int getIteration() { return iteration; }
    public void incIteration() { iteration++; }
    public Object remove(String key) { return variables.remove(key); }
    public void put(String key, String value) { variables.put(key, value); }
    public void putObject(String key, Object value) { variables.put(key, value); }
    public void putAll(Map<String, ?> vars) { variables.putAll(vars); }
    public void putAll(JMeterVariables vars) { putAll(vars.variables); }
    public String get(String key) { return (String) variables.get(key); }
    public Object getObject(String key) { return variables.get(key); }
    public Iterator<Map.Entry<String, Object>> getIterator() { return Collections.unmodifiableMap(variables).entrySet().iterator(); }
    public Set<Map.Entry<String, Object>> entrySet() { return Collections.unmodifiableMap(variables).entrySet(); }
    public Map<String, Object> asMap() { return variables; }
}
