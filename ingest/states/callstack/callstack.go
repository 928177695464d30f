package callstack

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
)

// Option configures an [Analysis].
type Option func(*Analysis)

// WithKernel says a kernel analysis writes the same sink: it owns
// Threads/<tid> (the thread status), Exec_name and PID, and this analysis
// writes only the CallStack attributes.
func WithKernel() Option { return func(a *Analysis) { a.kernel = true } }

// WithSymbols names the outermost frame shown in Threads/<tid> (user-space
// traces) from a symbol table instead of its hexadecimal address.
func WithSymbols(s *Symbols) Option { return func(a *Analysis) { a.syms = s } }

// WithMaxDepth bounds the depth stored (at least 1; default 1024).
func WithMaxDepth(n int) Option {
	return func(a *Analysis) { a.maxDepth = max(1, n) }
}

// Analysis is the call stack analysis; it implements ingest.Analysis.
type Analysis struct {
	sink     core.StateSink
	tree     *core.AttributeTree
	kernel   bool
	syms     *Symbols
	maxDepth int

	plans      []plan // by EventClass.ID
	threadsKey core.Key
	threads    []thread
	byTID      map[int64]int32
	lastTID    int64 // one-entry cache of byTID: consecutive events are often from one thread
	lastIdx    int32
	outer      map[int64]core.Value // outermost-frame labels by address (user-space mode)

	now core.Time
	err error
}

type kind uint8

const (
	kUnresolved kind = iota
	kNone
	kPushAddr
	kPopAddr
	kPushName
	kPopName
	kMapBinary   // statedump bin_info, dlopen
	kDebugLink   // statedump or dl debug_link
	kUnmapBinary // dlclose
)

// plan is what one event class means here, resolved once.
type plan struct {
	k        kind
	name     core.Value // pushed value of a named pair
	label    core.Value // the same, for Threads/<tid>
	addr     int16
	tid      int16
	pid      int16
	procname int16
	bin      binaryPlan // statedump and dynamic-loader events
}

type thread struct {
	key      core.Key   // Threads/<tid>
	stackKey core.Key   // Threads/<tid>/CallStack, -1 until a push
	depthKey []core.Key // CallStack/1, /2...
	depth    int        // current depth, may exceed len(depthKey)
	execKey  core.Key   // -1 until known (user-space mode)
	pidKnown bool
}

// New returns a call stack analysis writing to sink.
func New(sink core.StateSink, opts ...Option) *Analysis {
	a := &Analysis{
		sink:       sink,
		tree:       sink.Attributes(),
		maxDepth:   1024,
		threadsKey: -1,
		byTID:      map[int64]int32{},
		lastTID:    -1,
		outer:      map[int64]core.Value{},
	}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Detect reports whether a trace has events this analysis understands:
// cyg-profile function events or "<provider>:<name>_entry"/"_exit" pairs
// carrying a thread id context, or LTTng-UST statedump / dynamic-loader
// events carrying the process id context (the binaries of call stacks).
func Detect(info core.SourceInfo, classes []*core.EventClass) bool {
	for _, c := range classes {
		if k, _ := classify(c.Name); k != kNone && threadField(c) >= 0 {
			return true
		}
		if classifyBinary(c.Name) != kNone && c.FieldIndex("context.vpid") >= 0 {
			return true
		}
	}
	return false
}

// classify returns what an event name does and, for named pairs, the name.
func classify(name string) (kind, string) {
	provider, ev, ok := strings.Cut(name, ":")
	if !ok || provider == "" {
		return kNone, ""
	}
	if provider == "lttng_ust_cyg_profile" || provider == "lttng_ust_cyg_profile_fast" {
		switch ev {
		case "func_entry":
			return kPushAddr, ""
		case "func_exit":
			return kPopAddr, ""
		}
		return kNone, ""
	}
	if n, ok := strings.CutSuffix(ev, "_entry"); ok && n != "" {
		return kPushName, n
	}
	if n, ok := strings.CutSuffix(ev, "_exit"); ok && n != "" {
		return kPopName, n
	}
	return kNone, ""
}

func threadField(c *core.EventClass) int {
	if i := c.FieldIndex(core.FieldVTID); i >= 0 {
		return i
	}
	return c.FieldIndex(core.FieldTID)
}

func (a *Analysis) resolve(c *core.EventClass) {
	for len(a.plans) <= c.ID {
		a.plans = append(a.plans, plan{})
	}
	if k := classifyBinary(c.Name); k != kNone {
		a.plans[c.ID] = plan{k: k, bin: resolveBinaryPlan(c)}
		return
	}
	k, name := classify(c.Name)
	p := plan{k: k, addr: -1, tid: -1, pid: -1, procname: -1}
	idx := func(i int) int16 {
		if i < 0 || i >= math.MaxInt16 {
			return -1
		}
		return int16(i)
	}
	if k != kNone {
		p.tid = idx(threadField(c))
		p.addr = idx(c.FieldIndex("addr"))
		p.pid = idx(c.FieldIndex(core.FieldVPID))
		p.procname = idx(c.FieldIndex(core.FieldProcname))
		if p.tid < 0 {
			p.k = kNone
		}
	}
	if name != "" {
		name = cleanName(name)
		p.name, p.label = core.String(name), core.String(name)
	}
	a.plans[c.ID] = p
}

// Handle processes one event, in time order.
func (a *Analysis) Handle(ev *core.Event) error {
	if a.err != nil {
		return a.err
	}
	id := ev.Class.ID
	if uint(id) >= uint(len(a.plans)) || a.plans[id].k == kUnresolved {
		if id < 0 {
			return nil
		}
		a.resolve(ev.Class)
	}
	p := &a.plans[id]
	switch p.k {
	case kNone:
		return nil
	case kMapBinary, kDebugLink, kUnmapBinary:
		a.binary(ev, p)
		return a.wrapErr(ev)
	}
	tid, ok := ev.Field(int(p.tid)).AsInt()
	if !ok || tid < 0 || tid > math.MaxInt32 {
		return nil
	}
	a.now = ev.Time
	th := a.thread(tid)
	if !a.kernel {
		a.identify(th, ev, p)
	}
	switch p.k {
	case kPushAddr:
		addr, ok := ev.Field(int(p.addr)).AsInt()
		if !ok {
			return nil
		}
		a.push(th, core.Int64(addr), addr, p)
	case kPushName:
		a.push(th, p.name, 0, p)
	case kPopAddr, kPopName:
		a.pop(th)
	}
	return a.wrapErr(ev)
}

// wrapErr says which event a sink error came from.
func (a *Analysis) wrapErr(ev *core.Event) error {
	if a.err != nil {
		a.err = fmt.Errorf("call stack analysis: %s at %d: %w", ev.Class.Name, ev.Time, a.err)
	}
	return a.err
}

// Finish implements ingest.Analysis: open frames stay open to the end.
func (a *Analysis) Finish(end core.Time) error { return a.err }

func (a *Analysis) modify(k core.Key, v core.Value) {
	if a.err == nil {
		a.err = a.sink.Modify(k, a.now, v)
	}
}

// thread returns the record of thread tid, creating it.
func (a *Analysis) thread(tid int64) *thread {
	if tid == a.lastTID {
		return &a.threads[a.lastIdx]
	}
	i, ok := a.byTID[tid]
	if !ok {
		if a.threadsKey < 0 {
			a.threadsKey = a.tree.Add(core.Root, core.AttrThreads)
		}
		a.threads = append(a.threads, thread{
			key:      a.tree.Add(a.threadsKey, strconv.FormatInt(tid, 10)),
			stackKey: -1,
			execKey:  -1,
		})
		i = int32(len(a.threads) - 1)
		a.byTID[tid] = i
	}
	a.lastTID, a.lastIdx = tid, i
	return &a.threads[i]
}

// identify sets Exec_name and PID from the contexts (user-space mode).
func (a *Analysis) identify(th *thread, ev *core.Event, p *plan) {
	if p.procname >= 0 {
		if f := ev.Field(int(p.procname)); f.Kind == core.FieldString && len(f.Bytes) > 0 {
			if th.execKey < 0 {
				th.execKey = a.tree.Add(th.key, core.AttrExecName)
			}
			if a.sink.Value(th.execKey).Str() != string(f.Bytes) {
				a.modify(th.execKey, core.String(cleanName(string(f.Bytes))))
			}
		}
	}
	if p.pid >= 0 && !th.pidKnown {
		if pid, ok := ev.Field(int(p.pid)).AsInt(); ok && pid >= 0 && pid <= math.MaxInt32 {
			th.pidKnown = true
			a.modify(a.tree.Add(th.key, core.AttrPID), core.Int32(int32(pid)))
		}
	}
}

func (a *Analysis) push(th *thread, v core.Value, addr int64, p *plan) {
	th.depth++
	if th.depth > a.maxDepth {
		return
	}
	if th.stackKey < 0 {
		th.stackKey = a.tree.Add(th.key, core.AttrCallStack)
	}
	for len(th.depthKey) < th.depth {
		th.depthKey = append(th.depthKey, a.tree.Add(th.stackKey, strconv.Itoa(len(th.depthKey)+1)))
	}
	a.modify(th.depthKey[th.depth-1], v)
	if th.depth == 1 && !a.kernel {
		label := p.label
		if p.k == kPushAddr {
			label = a.addrLabel(addr)
		}
		a.modify(th.key, label)
	}
}

func (a *Analysis) pop(th *thread) {
	if th.depth == 0 {
		return // the trace started inside this call
	}
	if th.depth <= a.maxDepth {
		a.modify(th.depthKey[th.depth-1], core.Null())
	}
	th.depth--
	if th.depth == 0 && !a.kernel {
		a.modify(th.key, core.Null())
	}
}

// addrLabel returns the outermost-frame label of an address, made once
// per address.
func (a *Analysis) addrLabel(addr int64) core.Value {
	if v, ok := a.outer[addr]; ok {
		return v
	}
	s := core.FormatAddress(uint64(addr))
	if a.syms != nil {
		if name, ok := a.syms.Name(uint64(addr)); ok {
			s = name
		}
	}
	v := core.String(cleanName(s))
	a.outer[addr] = v
	return v
}

// cleanName makes a name from the trace storable (valid UTF-8, bounded).
func cleanName(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) > core.MaxStringLen {
		s = strings.ToValidUTF8(s[:core.MaxStringLen], "")
	}
	return s
}
