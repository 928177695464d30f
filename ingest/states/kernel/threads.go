package kernel

import (
	"bytes"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/tracetui/tracetui/core"
)

// sub names a thread's sub-attribute.
type sub uint8

const (
	subExecName sub = iota
	subPID
	subPPID
	subSyscall
	subPrio
	subCPURQ
	subSysError
	numSubs
)

// subWaker names Threads/<tid>/Waker (kept by wakeup.go, not in thread.sub)
// among the names in subNames.
const subWaker = numSubs

var subNames = [numSubs + 1]string{
	subExecName: core.AttrExecName,
	subPID:      core.AttrPID,
	subPPID:     core.AttrPPID,
	subSyscall:  core.AttrSystemCall,
	subPrio:     core.AttrPrio,
	subCPURQ:    core.AttrCurrentCPURQ,
	subSysError: core.AttrSyscallError,
	subWaker:    core.AttrWaker,
}

// statusNull marks a null status in the int8 mirrors.
const statusNull = -1

// thread mirrors what the analysis needs of one Threads/<tid> attribute
// and its sub-attributes, so most events are decided without asking the
// sink. Sub-attribute keys are created only when a value is first known.
type thread struct {
	key    core.Key
	sub    [numSubs]core.Key // -1 until created
	num    [numSubs]int32    // mirror of integer sub-attributes (valid when known)
	sys    int32             // current system call (id in sysNames), -1 none
	status int8              // core.ThreadStatus, or statusNull
	known  uint8             // bit per sub: holds a non-null value
	// exiting: a perf EXIT record came; its next switch out ends it.
	exiting bool
	// execed: it executed a program, so it runs user code even when
	// kthreadd started it (a user-mode helper such as modprobe).
	execed bool
}

// threadTable holds the thread records by index, in pages: it grows
// without copying itself (a slice of millions of records held twice while
// it doubled). As with a slice, add may move the records of the last page:
// a pointer from at is valid until the next add.
type threadTable struct {
	pages [][]thread
	n     int32
}

// threadPageLen is the number of records of a full page (about 4 MiB).
// Pages of 4 096 records (270 KiB) left the build of 800 000 threads
// 40 MB more resident: once the analyses end, their many freed spans are
// not reused by the close's large allocations.
const threadPageLen = 1 << 16

// at returns record i, i < len.
func (t *threadTable) at(i int32) *thread { return &t.pages[i/threadPageLen][i%threadPageLen] }

// add appends th and returns its index.
func (t *threadTable) add(th thread) int32 {
	t.pages = core.AppendPaged(t.pages, int(t.n), threadPageLen, th)
	t.n++
	return t.n - 1
}

// thread returns the index of the record of thread tid, creating it (and
// its attribute) if needed; tid 0 is the idle thread of CPU cpuNum
// (core.ThreadName: "0_<cpu>"). It returns -1 for ids the model cannot
// name (negative, beyond int32, or 0 without a CPU).
func (a *Analysis) thread(tid int64, cpuNum int32) int32 {
	if tid == 0 {
		if cpuNum < 0 || cpuNum >= maxCPUs {
			return -1
		}
		c := a.cpu(cpuNum)
		if c.idle < 0 {
			c.idle = a.newThread(core.ThreadName(0, cpuNum))
		}
		return c.idle
	}
	if tid < 0 || tid > math.MaxInt32 {
		return -1
	}
	if i := a.tids.get(tid); i >= 0 {
		return i
	}
	i := a.newThread(core.ThreadName(tid, cpuNum))
	a.tids.set(tid, i)
	return i
}

// knownThread returns the index of thread tid's record, or -1 if the
// analysis has never seen it (so events about unknown threads that carry
// nothing to store create nothing).
func (a *Analysis) knownThread(tid int64, cpuNum int32) int32 {
	if tid == 0 {
		if cpuNum < 0 || cpuNum >= maxCPUs || int(cpuNum) >= len(a.cpus) || a.cpus[cpuNum] == nil {
			return -1
		}
		return a.cpus[cpuNum].idle
	}
	return a.tids.get(tid)
}

func (a *Analysis) newThread(name string) int32 {
	if a.threadsKey < 0 {
		a.threadsKey = a.tree.Add(core.Root, core.AttrThreads)
	}
	th := thread{key: a.tree.Add(a.threadsKey, name), sys: -1, status: statusNull}
	for s := range th.sub {
		th.sub[s] = -1
	}
	return a.threads.add(th)
}

// setStatus sets a thread's status (statusNull for null).
func (a *Analysis) setStatus(th *thread, s int8) {
	if th.status == s {
		return
	}
	th.status = s
	if s == statusNull {
		a.modify(th.key, core.Null())
		return
	}
	a.modify(th.key, core.Int32(int32(s)))
}

// subKey returns the key of a thread's sub-attribute, creating it.
func (a *Analysis) subKey(th *thread, s sub) core.Key {
	if th.sub[s] < 0 {
		th.sub[s] = a.tree.AddID(th.key, a.subID(s))
	}
	return th.sub[s]
}

// subID returns the tree's id of sub-attribute name s, interning it on
// first use, when Add would have: the ids, and so the tree, are the same.
func (a *Analysis) subID(s sub) uint32 {
	if a.subIDs[s] == 0 {
		a.subIDs[s] = a.tree.Intern(subNames[s]) + 1
	}
	return a.subIDs[s] - 1
}

// setInt sets an integer sub-attribute.
func (a *Analysis) setInt(th *thread, s sub, v int32) {
	bit := uint8(1) << s
	if th.known&bit != 0 && th.num[s] == v {
		return
	}
	th.known |= bit
	th.num[s] = v
	a.modify(a.subKey(th, s), core.Int32(v))
}

// fillInt sets an integer sub-attribute only if it holds no value yet.
func (a *Analysis) fillInt(th *thread, s sub, v int32) {
	if th.known&(1<<s) == 0 {
		a.setInt(th, s, v)
	}
}

// setNull clears a sub-attribute, if it was ever created.
func (a *Analysis) setNull(th *thread, s sub) {
	bit := uint8(1) << s
	if th.known&bit == 0 {
		return
	}
	th.known &^= bit
	a.modify(th.sub[s], core.Null())
}

// setValue sets a sub-attribute to a string value.
func (a *Analysis) setValue(th *thread, s sub, v core.Value) {
	th.known |= 1 << s
	a.modify(a.subKey(th, s), v)
}

// setExecName sets Exec_name from a comm or file name, allocating only
// when it changes. A 15-byte comm that prefixes the current name is the
// kernel's truncation (TASK_COMM_LEN) of a name set from an exec's file
// name, and keeps the longer name.
func (a *Analysis) setExecName(th *thread, name []byte) {
	name = cutNUL(name)
	if len(name) == 0 {
		return
	}
	if th.known&(1<<subExecName) != 0 {
		cur := a.sink.Value(th.sub[subExecName]).Str()
		if cur == string(name) || len(name) == taskCommLen-1 && len(cur) > len(name) && cur[:len(name)] == string(name) {
			return
		}
	}
	a.setValue(th, subExecName, core.String(cleanText(name)))
}

// fillExecName sets Exec_name only if it holds no value yet.
func (a *Analysis) fillExecName(th *thread, name []byte) {
	if th.known&(1<<subExecName) == 0 {
		a.setExecName(th, name)
	}
}

// setSyscall records the system call a thread is in (-1: none).
func (a *Analysis) setSyscall(th *thread, id int32) {
	if th.sys == id {
		return
	}
	th.sys = id
	if id < 0 {
		a.setNull(th, subSyscall)
		return
	}
	a.setValue(th, subSyscall, a.sysNames[id])
}

// running returns the status of a thread that holds its CPU: interrupted
// while the CPU handles an interrupt, else in a system call or user mode.
func running(c *cpu, th *thread) int8 {
	switch {
	case c != nil && (c.irqActive > 0 || c.softRunning > 0):
		return int8(core.ThreadInterrupted)
	case th.inKernel():
		return int8(core.ThreadRunSyscall)
	}
	return int8(core.ThreadRunUser)
}

// kthreadd is the PID of the kernel's thread daemon, the parent of every
// kernel thread.
const kthreadd = 2

// inKernel reports whether th runs kernel code when it holds its CPU: it
// is in a system call, or it is a kernel thread (kthreadd, PID 2, or one
// of its children that has not executed a program), which has no user
// mode (its running time was shown as "running user mode"; Trace Compass
// shows it so too).
func (th *thread) inKernel() bool {
	if th.sys >= 0 {
		return true
	}
	pid := th.known&(1<<subPID) != 0 && th.num[subPID] == kthreadd
	ppid := th.known&(1<<subPPID) != 0 && th.num[subPPID] == kthreadd
	return !th.execed && (pid || ppid)
}

// taskCommLen is Linux's TASK_COMM_LEN: comm fields hold at most 15 bytes.
const taskCommLen = 16

// cutNUL drops a fixed-size char array's padding.
func cutNUL(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// cleanText makes trace bytes storable: valid UTF-8 (bad bytes replaced),
// at most core.MaxStringLen bytes, cut at a rune boundary.
func cleanText(b []byte) string {
	b = cutNUL(b)
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if len(s) > core.MaxStringLen {
		n := core.MaxStringLen
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
	}
	return s
}

// baseName returns the last element of a file path ("/usr/bin/ls" -> "ls").
func baseName(p []byte) []byte {
	p = cutNUL(p)
	for len(p) > 1 && p[len(p)-1] == '/' {
		p = p[:len(p)-1]
	}
	if i := bytes.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return p
}
