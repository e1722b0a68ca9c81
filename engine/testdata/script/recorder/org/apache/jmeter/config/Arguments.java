package org.apache.jmeter.config;

import java.util.*;

/** Stand-in for JMeter's Arguments with the methods scripts use. */
public class Arguments {
    private final List<Argument> args = new ArrayList<>();
    public void addArgument(Argument a) { args.add(a); }
    public void addArgument(String name, String value) { args.add(new Argument(name, value, null)); }
    public void addArgument(String name, String value, String metadata) { args.add(new Argument(name, value, metadata)); }
    public int getArgumentCount() { return args.size(); }
    public Argument getArgument(int row) { return row < args.size() ? args.get(row) : null; }
    public void removeArgument(int row) { if (row < args.size()) args.remove(row); }
    public void removeArgument(Argument a) { args.removeIf(x -> a.equals(x)); }
    public void removeArgument(String name) { args.removeIf(x -> x.getName().equals(name)); }
    public void removeArgument(String name, String value) { args.removeIf(x -> x.getName().equals(name) && value.equals(x.getValue())); }
    public void removeAllArguments() { args.clear(); }
    public void clear() { args.clear(); }
    public Map<String, String> getArgumentsAsMap() {
        Map<String, String> m = new LinkedHashMap<>();
        for (Argument a : args) if (!m.containsKey(a.getName())) m.put(a.getName(), a.getValue());
        return m;
    }
    public List<Argument> list() { return args; }
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < args.size(); i++) {
            Argument a = args.get(i);
            if (i > 0) b.append("&");
            b.append(a.getName()).append(a.getMetaData() == null ? "=" : a.getMetaData()).append(a.getValue());
        }
        return b.toString();
    }
}
