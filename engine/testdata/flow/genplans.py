#!/usr/bin/env python3
"""Writes the flow test plans (*.jmx) of this folder.

Each plan sends HTTP requests to ${__P(host)}:${__P(port)}, where the test
(or record.sh) runs a recording server: /status/NNN answers NNN, anything
else 200. Every thread group sends its thread as the X-T header, so the
server can tell the threads apart. Run it after changing a plan, then
record.sh to re-record the goldens with JMeter 2.13.
"""
import os
from xml.sax.saxutils import escape, quoteattr

HERE = os.path.dirname(os.path.abspath(__file__))


def sprop(name, value):
    return '<stringProp name=%s>%s</stringProp>' % (quoteattr(name), escape(str(value)))


def bprop(name, value):
    return '<boolProp name=%s>%s</boolProp>' % (quoteattr(name), 'true' if value else 'false')


def iprop(name, value):
    return '<intProp name=%s>%d</intProp>' % (quoteattr(name), value)


class E:
    """One test element and its children (its hashTree)."""

    def __init__(self, tag, gui, name, props=(), kids=(), enabled=True, testclass=None):
        self.tag, self.gui, self.name = tag, gui, name
        self.props, self.kids, self.enabled = list(props), list(kids), enabled
        self.testclass = testclass or tag

    def xml(self):
        head = '<%s guiclass="%s" testclass="%s" testname=%s enabled="%s">' % (
            self.tag, self.gui, self.testclass, quoteattr(self.name), 'true' if self.enabled else 'false')
        out = [head] + self.props + ['</%s>' % self.tag, '<hashTree>']
        for k in self.kids:
            out.append(k.xml())
        out.append('</hashTree>')
        return '\n'.join(out)


def args_prop(name, pairs, http=False):
    items = []
    for k, v in pairs:
        if http:
            items.append('<elementProp name=%s elementType="HTTPArgument">%s%s%s%s%s</elementProp>' % (
                quoteattr(k), bprop('HTTPArgument.always_encode', False), sprop('Argument.value', v),
                sprop('Argument.metadata', '='), bprop('HTTPArgument.use_equals', True), sprop('Argument.name', k)))
        else:
            items.append('<elementProp name=%s elementType="Argument">%s%s%s</elementProp>' % (
                quoteattr(k), sprop('Argument.name', k), sprop('Argument.value', v), sprop('Argument.metadata', '=')))
    gui = 'HTTPArgumentsPanel' if http else 'ArgumentsPanel'
    return ('<elementProp name=%s elementType="Arguments" guiclass="%s" testclass="Arguments" enabled="true">'
            '<collectionProp name="Arguments.arguments">%s</collectionProp></elementProp>') % (quoteattr(name), gui, ''.join(items))


def plan(name, kids, serialize=False, teardown_on_shutdown=False, udv=()):
    tp = E('TestPlan', 'TestPlanGui', name, [
        bprop('TestPlan.functional_mode', False),
        bprop('TestPlan.serialize_threadgroups', serialize),
        bprop('TestPlan.tearDown_on_shutdown', teardown_on_shutdown),
        args_prop('TestPlan.user_defined_variables', udv),
    ], kids)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<jmeterTestPlan version="1.2" properties="2.8" jmeter="2.13">\n'
            '<hashTree>\n' + tp.xml() + '\n</hashTree>\n</jmeterTestPlan>\n')


def tg(name, kids, threads=1, loops=1, ramp=0, on_error='continue', kind='ThreadGroup', tag=None,
       scheduler=False, duration='', delay='', forever=False, delayed=False):
    gui = {'ThreadGroup': 'ThreadGroupGui', 'SetupThreadGroup': 'SetupThreadGroupGui',
           'PostThreadGroup': 'PostThreadGroupGui'}[kind]
    props = [
        '<elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" '
        'testclass="LoopController" testname="Loop Controller" enabled="true">%s%s</elementProp>' % (
            bprop('LoopController.continue_forever', forever), sprop('LoopController.loops', loops)),
        sprop('ThreadGroup.num_threads', threads),
        sprop('ThreadGroup.ramp_time', ramp),
        bprop('ThreadGroup.scheduler', scheduler),
        sprop('ThreadGroup.duration', duration),
        sprop('ThreadGroup.delay', delay),
        sprop('ThreadGroup.on_sample_error', on_error),
    ]
    if delayed:
        props.append(bprop('ThreadGroup.delayedStart', True))
    header = headers('thread', [('X-T', '%s-${__threadNum}' % (tag or name))])
    return E(kind, gui, name, props, [header] + list(kids))


def headers(name, pairs):
    items = ''.join('<elementProp name="" elementType="Header">%s%s</elementProp>' % (
        sprop('Header.name', k), sprop('Header.value', v)) for k, v in pairs)
    return E('HeaderManager', 'HeaderPanel', name, ['<collectionProp name="HeaderManager.headers">%s</collectionProp>' % items])


def http(name, path, kids=(), query=()):
    return E('HTTPSamplerProxy', 'HttpTestSampleGui', name, [
        args_prop('HTTPsampler.Arguments', query, http=True),
        sprop('HTTPSampler.domain', '${__P(host,127.0.0.1)}'),
        sprop('HTTPSampler.port', '${__P(port,8080)}'),
        sprop('HTTPSampler.protocol', 'http'),
        sprop('HTTPSampler.path', path),
        sprop('HTTPSampler.method', 'GET'),
        bprop('HTTPSampler.follow_redirects', False),
        bprop('HTTPSampler.auto_redirects', False),
        bprop('HTTPSampler.use_keepalive', True),
        bprop('HTTPSampler.DO_MULTIPART_POST', False),
    ], kids)


def simple(name, kids, tag='GenericController', gui='LogicControllerGui', enabled=True):
    return E(tag, gui, name, [], kids, enabled=enabled)


def loop(name, loops, kids, forever=True):
    return E('LoopController', 'LoopControlPanel', name, [
        bprop('LoopController.continue_forever', forever), sprop('LoopController.loops', loops)], kids)


def while_(name, cond, kids):
    return E('WhileController', 'WhileControllerGui', name, [sprop('WhileController.condition', cond)], kids)


def if_(name, cond, kids, expr=None, all_=False):
    props = [sprop('IfController.condition', cond), bprop('IfController.evaluateAll', all_)]
    if expr is not None:
        props.append(bprop('IfController.useExpression', expr))
    return E('IfController', 'IfControllerPanel', name, props, kids)


def tc(name, kids, parent=False, timers=True):
    return E('TransactionController', 'TransactionControllerGui', name, [
        bprop('TransactionController.parent', parent), bprop('TransactionController.includeTimers', timers)], kids)


def once(name, kids):
    return E('OnceOnlyController', 'OnceOnlyControllerGui', name, [], kids)


def switch(name, value, kids):
    return E('SwitchController', 'SwitchControllerGui', name, [sprop('SwitchController.value', value)], kids)


def interleave(name, kids, style=1):
    return E('InterleaveControl', 'InterleaveControlGui', name, [iprop('InterleaveControl.style', style)], kids)


def throughput(name, kids, style=1, per_thread=True, max_=1, percent=100.0):
    return E('ThroughputController', 'ThroughputControllerGui', name, [
        iprop('ThroughputController.style', style), bprop('ThroughputController.perThread', per_thread),
        iprop('ThroughputController.maxThroughput', max_),
        '<FloatProperty><name>ThroughputController.percentThroughput</name><value>%s</value>'
        '<savedValue>0.0</savedValue></FloatProperty>' % percent], kids)


def foreach(name, inp, out, kids, sep=True, start=None, end=None):
    # JMeter 2.13 reads a blank index as 0 (5.x as unset): leave unset ones out.
    props = [sprop('ForeachController.inputVal', inp), sprop('ForeachController.returnVal', out),
             bprop('ForeachController.useSeparator', sep)]
    if start is not None:
        props.append(sprop('ForeachController.startIndex', start))
    if end is not None:
        props.append(sprop('ForeachController.endIndex', end))
    return E('ForeachController', 'ForeachControlPanel', name, props, kids)


def module(name, path):
    items = ''.join(sprop(str(i), p) for i, p in enumerate(path))
    return E('ModuleController', 'ModuleControllerGui', name,
             ['<collectionProp name="ModuleController.node_path">%s</collectionProp>' % items])


def include(name, path):
    return E('IncludeController', 'IncludeControllerGui', name, [sprop('IncludeController.includepath', path)])


def fragment(name, kids, enabled=True):
    return E('TestFragmentController', 'TestFragmentControllerGui', name, [], kids, enabled=enabled)


def action(name, act, target=0, duration='0'):
    return E('TestAction', 'TestActionGui', name, [
        iprop('ActionProcessor.action', act), iprop('ActionProcessor.target', target),
        sprop('ActionProcessor.duration', duration)])


def result_action(name, act):
    return E('ResultAction', 'ResultActionGui', name, [iprop('OnError.action', act)])


def udv(name, pairs):
    return E('Arguments', 'ArgumentsPanel', name, [
        '<collectionProp name="Arguments.arguments">%s</collectionProp>' % ''.join(
            '<elementProp name=%s elementType="Argument">%s%s%s</elementProp>' % (
                quoteattr(k), sprop('Argument.name', k), sprop('Argument.value', v), sprop('Argument.metadata', '='))
            for k, v in pairs)])


def user_params(name, pairs, per_iteration=False):
    names = ''.join(sprop(str(i), k) for i, (k, _) in enumerate(pairs))
    vals = ''.join(sprop(str(i), v) for i, (_, v) in enumerate(pairs))
    return E('UserParameters', 'UserParametersGui', name, [
        '<collectionProp name="UserParameters.names">%s</collectionProp>' % names,
        '<collectionProp name="UserParameters.thread_values"><collectionProp name="1">%s</collectionProp></collectionProp>' % vals,
        bprop('UserParameters.per_iteration', per_iteration)])


def constant_timer(name, ms):
    return E('ConstantTimer', 'ConstantTimerGui', name, [sprop('ConstantTimer.delay', ms)])


PLANS = {}

# Loop Controller: a count from a variable, "loop forever" on and off
# (off: done after its count, dropped by its parent for the rest of the
# thread's life), a count of 0, loops nested.
PLANS['loop'] = plan('loop', udv=[('n', '2')], kids=[
    tg('Loops', loops=2, kids=[
        loop('L-var', '${n}', [http('A', '/a')]),
        loop('L-once', '2', [http('B', '/b')], forever=False),
        loop('L-zero', '0', [http('X', '/x')]),
        loop('L-outer', '2', [loop('L-inner', '2', [http('C', '/c')]), http('D', '/d')]),
        http('E', '/e'),
    ]),
])

# While Controller: blank (ends after a failed sample at the end of a pass),
# LAST (not entered after a failure), a function condition (evaluated
# twice at each pass boundary, as JMeter does).
PLANS['while'] = plan('while', kids=[
    tg('While', kids=[
        while_('W-blank', '', [
            http('W1', '/w1', query=[('i', '${__counter(TRUE,)}')]),
            if_('fail third', '${__javaScript(${__counter(TRUE,c2)} >= 3)}', [http('W-fail', '/status/500')]),
        ]),
        http('after-fail', '/status/503'),
        while_('W-last', 'LAST', [http('never', '/never')]),
        http('ok', '/ok'),
        while_('W-last-ok', 'LAST', [
            http('L1', '/l1'),
            if_('fail once', '${__javaScript(${__counter(TRUE,c3)} == 2)}', [http('L-fail', '/status/500')]),
        ]),
        while_('W-fn', '${__javaScript(${__counter(TRUE,c4)} < 6)}', [http('F', '/f', query=[('c', '${c4}')])]),
    ]),
])

# If Controller: JavaScript conditions (string and number comparisons, &&,
# ||, !, last_sample_ok), "interpret as variable expression", "evaluate for
# all children".
PLANS['if'] = plan('if', udv=[('v', 'abc'), ('n', '3'), ('flag', 'TRUE')], kids=[
    tg('If', kids=[
        if_('str eq', '"${v}" == "abc"', [http('I1', '/i1')]),
        if_('str ne', "'${v}' != 'abc'", [http('never1', '/never1')]),
        if_('num', '${n} > 2 && ${n} < 10 || false', [http('I2', '/i2')]),
        if_('not', '!(${n} == 3)', [http('never2', '/never2')]),
        if_('loose', '"3" == ${n}', [http('I3', '/i3')]),
        http('fails', '/status/404'),
        if_('last ok', '${JMeterThread.last_sample_ok}', [http('never3', '/never3')]),
        if_('last failed', '!${JMeterThread.last_sample_ok}', [http('I4', '/i4')]),
        if_('expression', '${flag}', [http('I5', '/i5')], expr=True),
        if_('expression false', 'yes', [http('never4', '/never4')], expr=True),
        if_('all', '${__javaScript(${__counter(TRUE,k)} <= 2)}', [
            http('J1', '/j1'), http('J2', '/j2'), http('J3', '/j3')], all_=True),
        if_('first only', '${__javaScript(${__counter(TRUE,m)} <= 1)}', [
            http('K1', '/k1'), http('K2', '/k2'), http('K3', '/k3')]),
    ]),
])

# Transaction Controller: non-parent (its own sample after its children's,
# failing when one failed, JMeter's count of samples), parent (children as
# sub-samples), nested, a child controller that yields nothing.
PLANS['transaction'] = plan('transaction', kids=[
    tg('Tx', loops=2, kids=[
        tc('T-plain', [http('P1', '/p1'), http('P2', '/status/500')]),
        tc('T-parent', [http('Q1', '/q1'), http('Q2', '/status/404')], parent=True),
        tc('T-outer', [http('R1', '/r1'), tc('T-inner', [http('R2', '/r2')]), http('R3', '/r3')]),
        tc('T-skip', [if_('false', 'false', [http('never', '/never')]), http('S1', '/s1')]),
        tc('T-nested-parent', [tc('T-np-inner', [http('U1', '/u1')], parent=True), http('U2', '/u2')], parent=True),
        tc('T-no-timers', [http('V1', '/v1')], timers=False),
    ]),
])

# Once Only (first pass of its parent: once per thread, once per pass of
# an outer loop) and Switch (by index, by name, default, out of range).
PLANS['once_switch'] = plan('once_switch', kids=[
    tg('OnceSwitch', loops=2, kids=[
        once('once', [http('O1', '/o1')]),
        loop('L', '2', [once('once in loop', [http('O2', '/o2')]), http('O3', '/o3')]),
        switch('by index', '1', [http('S0', '/s0'), http('S1', '/s1'), http('S2', '/s2')]),
        switch('by name', 'two', [http('one', '/one'), simple('two', [http('T1', '/t1'), http('T2', '/t2')])]),
        switch('default', 'nope', [http('a', '/a'), http('default', '/default')]),
        switch('out of range', '7', [http('first', '/first'), http('second', '/second')]),
        switch('no match', 'nope', [http('x', '/x'), http('y', '/y')]),
    ]),
])

# Interleave: one child per pass, a child controller as one block (style
# 1) or one of its samplers per pass (style 0).
PLANS['interleave'] = plan('interleave', kids=[
    tg('Interleave', loops=4, kids=[
        interleave('blocks', [http('A', '/a'), simple('S', [http('B1', '/b1'), http('B2', '/b2')]), http('C', '/c')]),
        interleave('ignore blocks', [http('D', '/d'), simple('S2', [http('E1', '/e1'), http('E2', '/e2')])], style=0),
    ]),
])

# Throughput Controller per user: percent (deterministic in JMeter) and
# total executions.
PLANS['throughput'] = plan('throughput', kids=[
    tg('Throughput', loops=6, kids=[
        throughput('50 percent', [http('P', '/p')], style=1, percent=50.0),
        throughput('33 percent', [http('Q', '/q')], style=1, percent=33.0),
        throughput('total 2', [http('T', '/t')], style=0, max_=2),
        http('each', '/each'),
    ]),
])

# ForEach: with and without separator, start and end indices.
PLANS['foreach'] = plan('foreach', udv=[('in_1', 'a'), ('in_2', 'b'), ('in_3', 'c'), ('x1', 'p'), ('x2', 'q')], kids=[
    tg('ForEach', kids=[
        foreach('all', 'in', 'v', [http('F', '/f', query=[('v', '${v}')])]),
        foreach('no sep', 'x', 'w', [http('G', '/g', query=[('w', '${w}')])], sep=False),
        foreach('from 1 to 2', 'in', 'u', [http('H', '/h', query=[('u', '${u}')])], start='1', end='2'),
        foreach('none', 'missing', 'z', [http('never', '/never')]),
    ]),
])

# Module Controller (a disabled library controller, a Test Fragment) and
# Include Controller (the first Test Fragment of another plan).
PLANS['module'] = plan('module', kids=[
    fragment('Fragment', [http('FR', '/fragment')]),
    tg('Modules', loops=2, kids=[
        simple('library', [http('LIB', '/library')], enabled=False),
        module('run library', ['WorkBench', 'module', 'Modules', 'library']),
        module('run fragment', ['WorkBench', 'module', 'Fragment']),
        include('include', 'include_fragment.jmx'),
        http('end', '/end'),
    ]),
])
INCLUDED = plan('include_fragment', kids=[
    http('outside', '/outside'),
    fragment('Included', [http('INC', '/included')]),
])

# setUp and tearDown groups, serialized groups, thread group numbers per
# phase, the errors actions of the thread groups.
PLANS['groups'] = plan('groups', serialize=True, kids=[
    tg('Main1', threads=2, loops=2, kids=[http('M1', '/m1'), http('M1-fail', '/status/500'), http('M1-after', '/m1after')],
       on_error='startnextloop'),
    tg('Setup', kind='SetupThreadGroup', kids=[http('SU', '/setup')]),
    tg('Main2', loops=3, kids=[http('M2', '/m2'), http('M2-fail', '/status/500'), http('M2-after', '/m2after')],
       on_error='stopthread'),
    tg('Main3', loops=2, kids=[http('M3-fail', '/status/500'), http('M3-after', '/m3after')]),
    tg('Teardown', kind='PostThreadGroup', kids=[http('TD', '/teardown')]),
])

# Stop Test on a sampler error: the running groups stop, the tearDown
# group runs only with tearDown_on_shutdown.
PLANS['stoptest'] = plan('stoptest', serialize=True, teardown_on_shutdown=True, kids=[
    tg('Stopper', loops=3, kids=[http('ok', '/ok'), http('fail', '/status/500'), http('never', '/never')],
       on_error='stoptest'),
    tg('Next', kids=[http('next', '/next')]),
    tg('Teardown', kind='PostThreadGroup', kids=[http('TD', '/teardown')]),
])
PLANS['stoptest_noteardown'] = plan('stoptest_noteardown', serialize=True, teardown_on_shutdown=False, kids=[
    tg('Stopper', kids=[http('fail', '/status/500')], on_error='stoptest'),
    tg('Teardown', kind='PostThreadGroup', kids=[http('TD', '/teardown')]),
])

# Flow Control Action (pause, stop thread, start next thread loop) and
# Result Status Action Handler (start next thread loop, stop thread).
PLANS['actions'] = plan('actions', kids=[
    tg('Pause', loops=2, kids=[http('A1', '/a1'), action('pause', 1, duration='50'), http('A2', '/a2')]),
    tg('NextLoop', loops=3, kids=[
        http('B1', '/b1'),
        if_('second pass', '${__javaScript(${__counter(TRUE,n)} == 2)}', [action('next loop', 3)]),
        http('B2', '/b2'),
    ]),
    tg('StopThread', loops=3, kids=[http('C1', '/c1'), action('stop', 0), http('never', '/never')]),
    tg('OnError', loops=2, kids=[
        tc('T', [http('D1', '/d1'), http('D-fail', '/status/500', kids=[result_action('next loop', 4)]), http('D2', '/d2')]),
        http('D3', '/d3'),
    ]),
    tg('OnErrorStop', loops=2, kids=[
        http('E1', '/e1'), http('E-fail', '/status/500'), http('E2', '/e2'),
        result_action('stop thread', 1),
    ]),
])

# Scoping: User Parameters (pre-processors) at every level run outer first,
# the plan's own after the thread group's at the same level.
PLANS['scope'] = plan('scope', kids=[
    user_params('plan', [('who', 'plan'), ('p', 'plan')]),
    tg('Scope', kids=[
        user_params('group', [('who', 'group'), ('g', 'group')]),
        simple('ctl', [
            user_params('controller', [('c', 'controller')]),
            http('inner', '/inner', query=[('who', '${who}'), ('p', '${p}'), ('g', '${g}'), ('c', '${c}')]),
            http('own', '/own', query=[('who', '${who}')], kids=[user_params('sampler', [('who', 'sampler')])]),
        ]),
        http('outer', '/outer', query=[('who', '${who}'), ('c', '${c}')]),
    ]),
])

if __name__ == '__main__':
    for name, text in PLANS.items():
        with open(os.path.join(HERE, name + '.jmx'), 'w') as f:
            f.write(text)
    with open(os.path.join(HERE, 'include_fragment.jmx'), 'w') as f:
        f.write(INCLUDED)
