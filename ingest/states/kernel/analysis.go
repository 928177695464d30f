package kernel

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/states/kernel/sysnames"
)

// Analysis is the Linux kernel state analysis. It implements
// ingest.Analysis: feed it every event of the trace in time order with
// Handle, then call Finish; it writes to the sink given to [New].
//
// Per event it does one slice read to find the class's plan, a few field
// reads by index, and array lookups for the CPU and threads; it allocates
// only when an attribute or a string value is new.
type Analysis struct {
	sink   core.StateSink
	tree   *core.AttributeTree
	layout *Layout
	plans  []classPlan // by EventClass.ID

	threadsKey, cpusKey core.Key // top-level attributes, -1 until needed
	threads             threadTable
	subIDs              [numSubs + 1]uint32 // the tree's name id of each subNames + 1, 0 until used
	tids                idMap               // tid -> index in threads (tid 0 lives per CPU)
	cpus                []*cpu

	sysNames []core.Value     // system call names, by id
	sysIDs   map[string]int32 // name -> id, at resolution time only
	rawSys   idMap            // raw syscall number -> id
	sysTable *sysnames.Table  // names raw numbers; nil: "syscall#<n>"

	clones clones // the clone/fork calls in progress, see clone.go

	links wakeLinks // wake-up links (Threads/<tid>/Waker), see wakeup.go

	irqNames irqNames // IRQ_names/<irq>, see irqnames.go

	cpuWideSwitch bool // a perf SWITCH_CPU_WIDE record was seen (perfrecords.go)

	now core.Time // time of the event being handled
	err error     // first sink error; sticky
}

// classPlan is what one event class means to the analysis, resolved once.
type classPlan struct {
	h      handler
	f      [numSlots]int16 // field index per slot, -1 absent
	ctxTID int16           // field holding the running thread, -1 absent
	ctxPID int16           // field holding the running thread's process, -1 absent
	sys    int32           // syscall entries: name id, or -1 to read the number field
	sbTID  int16           // side-band records: the context's thread field, not adopted
}

// maxCPUs bounds the CPU numbers accepted from a trace (Linux's NR_CPUS
// tops out at 8192); events from larger numbers are treated as coming from
// an unknown CPU, so a corrupt CPU field cannot allocate without limit.
const maxCPUs = 1 << 16

// New returns a kernel analysis writing to sink, reading event and field
// names with layout (from [Detect]). layout must not be nil.
func New(sink core.StateSink, layout *Layout) *Analysis {
	if layout == nil {
		panic("kernel.New: nil layout")
	}
	return &Analysis{
		sink:       sink,
		tree:       sink.Attributes(),
		layout:     layout,
		threadsKey: -1,
		cpusKey:    -1,
		sysIDs:     map[string]int32{},
		clones:     newClones(),
		irqNames:   irqNames{key: -1},
	}
}

// SetArch names raw system call numbers (raw_syscalls, LTTng's
// syscall_entry_unknown) with the table of architecture arch: the one the
// trace records (core.SourceInfo.Arch), else the user's --arch, else ""
// for the machine's own. Without a call, or when it fails (an
// architecture without a table), raw calls are named "syscall#<n>". Call
// it before the first event.
func (a *Analysis) SetArch(arch string) error {
	t, err := sysnames.For(arch)
	if err != nil {
		return fmt.Errorf("kernel analysis: %w", err)
	}
	a.sysTable = t
	return nil
}

// Layout returns the layout the analysis reads events with.
func (a *Analysis) Layout() *Layout { return a.layout }

// Handle processes one event. Events must come in non-decreasing time
// order. The only errors are the sink's (e.g. [core.ErrTimeOrder]); odd
// trace content (missing fields, unknown threads, exits without entries)
// is absorbed as Trace Compass does.
func (a *Analysis) Handle(ev *core.Event) error {
	if a.err != nil {
		return a.err
	}
	id := ev.Class.ID
	if uint(id) >= uint(len(a.plans)) || a.plans[id].h == hUnresolved {
		if id < 0 {
			return nil
		}
		a.resolve(ev.Class)
	}
	p := &a.plans[id]
	if p.h == hNone && p.ctxTID < 0 {
		return nil
	}
	a.now = ev.Time
	var c *cpu
	if ev.CPU >= 0 && ev.CPU < maxCPUs {
		c = a.cpu(ev.CPU)
		if p.ctxTID >= 0 {
			a.adoptContext(c, ev, p)
		}
	}
	switch p.h {
	case hSchedSwitch:
		a.schedSwitch(c, ev, p)
		a.linkSwitch(c)
	case hWakeup:
		a.wakeupLinked(c, ev, p)
	case hFork:
		a.fork(c, ev, p)
		a.linkFork(c, ev, p)
	case hExec:
		a.exec(c, ev, p)
	case hExit:
		a.exit(c, ev, p)
	case hFree:
		a.free(c, ev, p)
		a.linkFree(ev, p)
	case hPiSetprio:
		a.piSetprio(c, ev, p)
	case hMigrate:
		a.migrate(ev, p)
	case hSysEntry:
		a.sysEntry(c, ev, p)
	case hSysExit:
		a.sysExit(c, ev, p)
	case hIrqEntry:
		a.irqEntry(c, ev, p)
		a.pushContext(c, ev, p, ctxIRQ)
	case hIrqExit:
		a.irqExit(c, ev, p)
		a.popContext(c, ctxIRQ)
	case hSoftRaise:
		a.softRaise(c, ev, p)
	case hSoftEntry:
		a.softEntry(c, ev, p)
		a.pushContext(c, ev, p, ctxSoftIRQ)
	case hSoftExit:
		a.softExit(c, ev, p)
		a.popContext(c, ctxSoftIRQ)
	case hTimerEntry:
		a.pushContext(c, ev, p, ctxTimer)
	case hTimerExit:
		a.popContext(c, ctxTimer)
	case hStatedump:
		a.statedump(c, ev, p)
	case hNewTask:
		a.newTask(c, ev, p)
	case hPerfComm:
		a.perfComm(c, ev, p)
	case hPerfFork:
		a.perfFork(c, ev, p)
	case hPerfExit:
		a.perfExit(c, ev, p)
	case hPerfSwitch:
		a.perfSwitch(c, ev, p)
	}
	if a.err != nil {
		a.err = fmt.Errorf("kernel analysis: %s at %d: %w", ev.Class.Name, ev.Time, a.err)
	}
	return a.err
}

// Finish implements ingest.Analysis. Open states (running threads, active
// interrupts, unfinished system calls) simply stay current: the sink's
// Close ends them at the trace end.
func (a *Analysis) Finish(end core.Time) error { return a.err }

// resolve builds the plan of class c: its handler and field indexes.
func (a *Analysis) resolve(c *core.EventClass) {
	for len(a.plans) <= c.ID {
		a.plans = append(a.plans, classPlan{})
	}
	p := classPlan{ctxTID: -1, ctxPID: -1, sys: -1, sbTID: -1}
	var sysName string
	p.h, sysName = a.layout.classify(c.Name)
	for s := range p.f {
		p.f[s] = -1
		if p.h != hNone {
			p.f[s] = fieldIndex(c, a.layout.fields[p.h][s])
		}
	}
	if p.h == hSysEntry {
		switch {
		case sysName == "": // raw entry: number in its own field
			p.f[sNumber] = fieldIndex(c, a.layout.rawNumber)
		case sysName == "unknown" && p.f[sNumber] >= 0: // LTTng's sys_unknown carries the number
		default:
			p.sys = a.sysID(sysName)
			p.f[sNumber] = -1
		}
	}
	p.ctxTID = fieldIndex(c, a.layout.ctxTID)
	if a.layout.sideband != "" && strings.HasPrefix(c.Name, a.layout.sideband) && p.h != hPerfSwitch {
		p.sbTID, p.ctxTID = p.ctxTID, -1
	}
	if p.ctxTID >= 0 {
		p.ctxPID = fieldIndex(c, a.layout.ctxPID)
	}
	a.plans[c.ID] = p
}

// sysID returns the id of a system call name, adding it if new.
func (a *Analysis) sysID(name string) int32 {
	if id, ok := a.sysIDs[name]; ok {
		return id
	}
	id := int32(len(a.sysNames))
	a.sysNames = append(a.sysNames, core.String(cleanText([]byte(name))))
	a.sysIDs[name] = id
	a.clones.named(name, id)
	return id
}

// rawSysID returns the id of the name of system call number n: its name
// in the architecture's table, else "syscall#n".
func (a *Analysis) rawSysID(n int64) int32 {
	if id := a.rawSys.get(n); id >= 0 {
		return id
	}
	name, ok := a.sysTable.Name(n)
	if !ok {
		name = "syscall#" + strconv.FormatInt(n, 10)
	}
	id := a.sysID(name)
	a.rawSys.set(n, id)
	return id
}

// modify writes one state change at the current event's time.
func (a *Analysis) modify(k core.Key, v core.Value) {
	if a.err == nil {
		a.err = a.sink.Modify(k, a.now, v)
	}
}

// intField reads an integer field by index.
func intField(ev *core.Event, i int16) (int64, bool) {
	if i < 0 || int(i) >= len(ev.Fields) {
		return 0, false
	}
	return ev.Fields[i].AsInt()
}

// textField reads a string field by index (nil when absent or not text).
func textField(ev *core.Event, i int16) []byte {
	if i < 0 || int(i) >= len(ev.Fields) {
		return nil
	}
	f := &ev.Fields[i]
	if f.Kind != core.FieldString {
		return nil
	}
	return f.Bytes
}

// fitsInt32 reports whether v fits the model's int32 attributes.
func fitsInt32(v int64) bool { return v >= -1<<31 && v < 1<<31 }
