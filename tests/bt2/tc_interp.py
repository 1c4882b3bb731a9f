#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small interpreter of the part of Trace Compass's XML state-provider
language that formats/tracecompass/kfd-analysis.xml uses, run over
babeltrace2's text output (several CTF traces merged in time order).

It reads the analysis file itself, so a broken analysis breaks the test.
An element or attribute outside the subset is an error, not ignored.

Field values follow what the analysis's comment says Trace Compass does:
an enumeration reaches conditions as its label, a state value as null, an
attribute name as its label; "context._NAME" is the event context's NAME.

A state change with <futureTime> happens at that time, if it is later than
the event's (else it is ignored, as the XSD says), before any event at or
after it. PatternProvider runs a <pattern>: FSMs of states and transitions
on event names, whose actions make segments (<segment>, with <segTime>).
"""
import heapq
import re
import xml.etree.ElementTree as ET


class Unsupported(Exception):
    pass


class Enum:
    def __init__(self, label, num):
        self.label, self.num = label, num


def _split_top(s):
    """Split 'a = 1, b = ( "X" : container = 2 ), c = [ ... ]' at depth 0."""
    out, depth, cur, q = [], 0, [], False
    for ch in s:
        if ch == '"':
            q = not q
        elif not q and ch in '([{':
            depth += 1
        elif not q and ch in ')]}':
            depth -= 1
        if ch == ',' and depth == 0 and not q:
            out.append(''.join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if ''.join(cur).strip():
        out.append(''.join(cur).strip())
    return out


def _value(v):
    v = v.strip()
    m = re.match(r'^\(\s*(?:"(.*)"|<unknown>)\s*:\s*container\s*=\s*(\S+)\s*\)$', v)
    if m:
        return Enum(m.group(1), int(m.group(2), 0))
    if v.startswith('"'):
        return v[1:-1]
    try:
        return int(v, 0)
    except ValueError:
        return v            # arrays, structures: not read by the subset


def _fields(block):
    d = {}
    for item in _split_top(block):
        if ' = ' in item:
            k, v = item.split(' = ', 1)
            d[k.strip()] = _value(v)
    return d


def _blocks(rest):
    """The top-level { ... } groups of an event line."""
    out, depth, start, q = [], 0, None, False
    for i, ch in enumerate(rest):
        if ch == '"':
            q = not q
        if q:
            continue
        if ch == '{':
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == '}':
            depth -= 1
            if depth == 0:
                out.append(rest[start:i])
    return out


def parse_events(text):
    """babeltrace2's default text output: (ns, name, context, payload)."""
    evs = []
    # [HH:MM:SS.NANOS], or [SECONDS.NANOS] (--clock-seconds: the time base
    # of absolute timestamps such as kfd:call_begin's end_ns).
    line_re = re.compile(r'^\[(?:(\d+):(\d+):(\d+)|(\d+))\.(\d+)\] '
                         r'(?:\(\S+\) )?\S+ (\S+): (.*)$')
    for line in text.splitlines():
        m = line_re.match(line)
        if not m:
            continue
        h, mi, s, secs, frac = m.group(1, 2, 3, 4, 5)
        if secs is not None:
            ns = int(secs) * 10**9 + int(frac.ljust(9, '0'))
        else:
            ns = ((int(h) * 60 + int(mi)) * 60 + int(s)) * 10**9 + \
                int(frac.ljust(9, '0'))
        b = _blocks(m.group(7))
        # babeltrace2 prints the common context, then the payload.
        ctx = _fields(b[0]) if len(b) >= 2 else {}
        payload = _fields(b[-1]) if b else {}
        evs.append((ns, m.group(6), ctx, payload))
    return evs


class Provider:
    def __init__(self, xml_path, provider_id):
        root = ET.parse(xml_path).getroot()
        self.sp = None
        for sp in root.findall('stateProvider'):
            if sp.get('id') == provider_id:
                self.sp = sp
        if self.sp is None:
            raise Unsupported('no stateProvider ' + provider_id)
        for child in self.sp:
            if child.tag not in ('head', 'eventHandler'):
                raise Unsupported('stateProvider child <%s>' % child.tag)
        self.state = {}         # path tuple -> value (None: null)
        self.changes = []       # (ns, path, value)
        self.future = []        # heap of (ns, order, path, value)

    # ---- field access ----
    @staticmethod
    def field(ev, name):
        ctx, payload = ev[2], ev[3]
        if name.startswith('context._'):
            return ctx.get(name[len('context._'):])
        return payload.get(name)

    @staticmethod
    def name_of(v):
        if isinstance(v, Enum):
            return v.label
        return str(v)

    # ---- paths ----
    def path(self, attrs, ev):
        p = []
        for a in attrs:
            t = a.get('type')
            if t == 'constant':
                p.append(a.get('value'))
            elif t == 'eventField':
                v = self.field(ev, a.get('value'))
                if v is None:
                    return None             # Trace Compass skips the change
                p.append(self.name_of(v))
            elif t == 'query':
                sub = self.path(a.findall('stateAttribute'), ev)
                if sub is None:
                    return None
                v = self.state.get(tuple(sub))
                if v is None:
                    return None
                p.append(str(v))
            else:
                raise Unsupported('stateAttribute type ' + str(t))
        return p

    # ---- values ----
    def value(self, sv, ev, for_condition=False):
        t = sv.get('type')
        for a in sv.attrib:
            if a not in ('type', 'value', 'forcedType', 'increment'):
                raise Unsupported('stateValue attribute ' + a)
        if t in ('null', 'delete'):
            return None
        if t in ('int', 'long'):
            return int(sv.get('value'), 0)
        if t == 'string':
            return sv.get('value')
        if t == 'eventName':
            return ev[1]
        if t == 'eventField':
            v = self.field(ev, sv.get('value'))
            if isinstance(v, Enum):
                v = v.label if for_condition else None
            ft = sv.get('forcedType')
            if v is not None and ft in ('int', 'long'):
                v = int(v)
            elif v is not None and ft == 'string':
                v = str(v)
            elif ft not in (None, 'int', 'long', 'string'):
                raise Unsupported('forcedType ' + ft)
            return v
        if t == 'query':
            sub = self.path(sv.findall('stateAttribute'), ev)
            return None if sub is None else self.state.get(tuple(sub))
        raise Unsupported('stateValue type ' + str(t))

    # ---- conditions ----
    def cond(self, c, ev):
        tag = c.tag
        kids = list(c)
        if tag == 'condition':
            op = c.get('operator', 'eq')
            f = c.find('field')
            sv = c.find('stateValue')
            if f is not None:
                left = self.field(ev, f.get('name'))
                if isinstance(left, Enum):
                    left = left.label
            else:
                sub = self.path(c.findall('stateAttribute'), ev)
                left = None if sub is None else self.state.get(tuple(sub))
            right = self.value(sv, ev, for_condition=True)
            if left is None or right is None:
                return op == 'ne' if (left is None) != (right is None) else op in ('eq', 'ge', 'le')
            if type(left) != type(right):
                if isinstance(left, int) and isinstance(right, str):
                    right = int(right, 0) if re.match(r'^-?\d+$', right) else right
                if type(left) != type(right):
                    left, right = str(left), str(right)
            return {'eq': left == right, 'ne': left != right,
                    'gt': left > right, 'ge': left >= right,
                    'lt': left < right, 'le': left <= right}[op]
        if tag == 'not':
            return not self.cond(kids[0], ev)
        if tag == 'and':
            return all(self.cond(k, ev) for k in kids)
        if tag == 'or':
            return any(self.cond(k, ev) for k in kids)
        raise Unsupported('condition <%s>' % tag)

    # ---- state changes ----
    def change(self, sc, ev):
        kids = list(sc)
        if sc.find('if') is not None:
            if self.cond(list(sc.find('if'))[0], ev):
                self.change(sc.find('then'), ev)
            elif sc.find('else') is not None:
                self.change(sc.find('else'), ev)
            return
        for k in kids:
            if k.tag not in ('stateAttribute', 'stateValue', 'futureTime'):
                raise Unsupported('stateChange child <%s>' % k.tag)
        p = self.path(sc.findall('stateAttribute'), ev)
        if p is None:
            return
        sv = sc.find('stateValue')
        v = self.value(sv, ev)
        key = tuple(p)
        ft = sc.find('futureTime')
        if ft is not None:
            if sv.get('type') == 'delete' or sv.get('increment') == 'true':
                raise Unsupported('futureTime with a delete or an increment')
            t = self.value(ft, ev)
            if isinstance(t, int) and t > ev[0]:
                heapq.heappush(self.future, (t, len(self.changes) +
                                             len(self.future), key, v))
            return
        if sv.get('type') == 'delete':
            for k in [k for k in self.state if k[:len(key)] == key]:
                del self.state[k]
            return
        if sv.get('increment') == 'true':
            if v is None:
                return
            v = (self.state.get(key) or 0) + v
        self.state[key] = v
        self.changes.append((ev[0], key, v))

    def _apply_future(self, until):
        while self.future and (until is None or self.future[0][0] <= until):
            t, _, key, v = heapq.heappop(self.future)
            self.state[key] = v
            self.changes.append((t, key, v))

    def run(self, events):
        handlers = self.sp.findall('eventHandler')
        for ev in events:
            self._apply_future(ev[0])
            for h in handlers:
                n = h.get('eventName')
                if n == ev[1] or (n.endswith('*') and ev[1].startswith(n[:-1])):
                    for sc in h.findall('stateChange'):
                        self.change(sc, ev)
        self._apply_future(None)
        return self.state


def _matches(pattern, name):
    return pattern == name or (pattern.endswith('*') and
                               name.startswith(pattern[:-1]))


class PatternProvider(Provider):
    """A <pattern>: its FSMs over the events, and the segments they make.

    The subset: FSMs listed in patternHandler's "initial", each a set of
    <state> elements with <transition event= target= action=> (no cond)
    and one <final>; <action> elements holding <segment>s. An FSM with
    multiple="true" (the default) keeps one scenario waiting in its
    initial state, so every matching event can start one.
    """

    def __init__(self, xml_path, pattern_id):
        root = ET.parse(xml_path).getroot()
        self.sp = None
        for p in root.findall('pattern'):
            if p.get('id') == pattern_id:
                self.sp = p
        if self.sp is None:
            raise Unsupported('no pattern ' + pattern_id)
        for child in self.sp:
            if child.tag not in ('head', 'patternHandler'):
                raise Unsupported('pattern child <%s>' % child.tag)
        ph = self.sp.find('patternHandler')
        self.actions, self.fsms = {}, []
        for child in ph:
            if child.tag == 'action':
                for a in child:
                    if a.tag != 'segment':
                        raise Unsupported('action child <%s>' % a.tag)
                self.actions[child.get('id')] = child
            elif child.tag == 'fsm':
                self.fsms.append(self._fsm(child))
            else:
                raise Unsupported('patternHandler child <%s>' % child.tag)
        initial = (ph.get('initial') or '').split(':')
        self.fsms = [f for f in self.fsms if f['id'] in initial]
        if not self.fsms:
            raise Unsupported('no initial fsm')
        self.state, self.changes, self.future = {}, [], []
        self.segments = []      # (name, begin, end, {field: value})

    @staticmethod
    def _fsm(el):
        for a in el.attrib:
            if a not in ('id', 'multiple', 'initial'):
                raise Unsupported('fsm attribute ' + a)
        states, final = {}, None
        for st in el:
            if st.tag == 'state':
                tr = []
                for t in st:
                    if t.tag != 'transition':
                        raise Unsupported('state child <%s>' % t.tag)
                    for a in t.attrib:
                        if a not in ('event', 'target', 'action'):
                            raise Unsupported('transition attribute ' + a)
                    tr.append((t.get('event'), t.get('target'),
                               [x for x in (t.get('action') or '').split(':')
                                if x]))
                states[st.get('id')] = tr
            elif st.tag == 'final':
                final = st.get('id')
            else:
                raise Unsupported('fsm child <%s>' % st.tag)
        if el.get('initial') not in states:
            raise Unsupported('fsm without an initial state')
        if el.get('multiple', 'true') != 'true':
            raise Unsupported('fsm of a single instance')
        return {'id': el.get('id'), 'initial': el.get('initial'),
                'states': states, 'final': final}

    def _segment(self, seg, ev, start):
        for k in seg:
            if k.tag not in ('segType', 'segTime', 'segContent'):
                raise Unsupported('segment child <%s>' % k.tag)
        st = seg.find('segType')
        for k in st:
            if k.tag != 'segName':
                raise Unsupported('segType child <%s>' % k.tag)
        name = st.get('segName')
        if st.find('segName') is not None:
            name = self.value(st.find('segName').find('stateValue'), ev)
        begin, end = start, ev[0]
        tm = seg.find('segTime')
        if tm is not None:
            for k in tm:
                if k.tag not in ('begin', 'duration', 'end'):
                    raise Unsupported('segTime child <%s>' % k.tag)
            b, d, e = tm.find('begin'), tm.find('duration'), tm.find('end')
            begin = self.value(b, ev)
            end = begin + self.value(d, ev) if d is not None else \
                self.value(e, ev)
        fields = {}
        sc = seg.find('segContent')
        for f in (list(sc) if sc is not None else []):
            if f.tag != 'segField':
                raise Unsupported('segContent child <%s>' % f.tag)
            sv = f.find('stateValue')
            fields[f.get('name')] = self.value(sv, ev) if sv is not None \
                else f.get('value')
        self.segments.append((name, begin, end, fields))

    def run(self, events):
        # Scenarios: [fsm, state, start time]; one waits per FSM.
        scen = [[f, f['initial'], None] for f in self.fsms]
        for ev in events:
            nxt = []
            for sc in scen:
                f, cur, start = sc
                for event, target, actions in f['states'][cur]:
                    if not _matches(event, ev[1]):
                        continue
                    if start is None:
                        start = ev[0]
                    for a in actions:
                        for seg in self.actions[a]:
                            self._segment(seg, ev, start)
                    cur = target
                    break
                if cur != f['final']:
                    nxt.append([f, cur, start])
            # An FSM of several instances always has one waiting.
            for f in self.fsms:
                if not any(s[0] is f and s[1] == f['initial'] for s in nxt):
                    nxt.append([f, f['initial'], None])
            scen = nxt
        return self.segments
