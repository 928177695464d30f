package kernel

import (
	"bytes"
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// Process ids from clone calls. The kernel's sched_process_fork names the
// parent and child threads but not whether the child is a new process or
// a new thread of its parent's (trace.dat and perf.data record no tgid;
// ftrace text has them only with record-tgid, LTTng in child_pid). The
// call that created the child says it: fork and vfork make a process,
// clone makes a thread when its flags hold CLONE_THREAD (the flags are
// clone's first argument on every architecture: the raw entry's first
// "args" element, the named entry's clone_flags). So a child made by a
// call whose flags are known gets a PID: its own tid for a process, its
// parent's PID, when known, for a thread; after clone3 (flags in user
// memory) the child's PID stays unknown unless task_newtask, which
// carries the flags of every call, was recorded; the threads that ran
// before the trace began have none until they exec.

// cloneThread is CLONE_THREAD, the flag of a new thread in the caller's
// thread group.
const cloneThread = 0x10000

// clones tracks the fork-like system calls in progress.
type clones struct {
	fork, vfork, clone int32           // their name ids (sysNames), -1 until seen
	flags              map[int64]int64 // tid in a fork-like call -> its clone flags (0 for fork)
}

func newClones() clones {
	return clones{fork: -1, vfork: -1, clone: -1, flags: map[int64]int64{}}
}

// named records the name id of a fork-like call when the analysis first
// meets its name.
func (c *clones) named(name string, id int32) {
	switch name {
	case "fork":
		c.fork = id
	case "vfork":
		c.vfork = id
	case "clone":
		c.clone = id
	}
}

// noteClone remembers the flags of the fork-like call the thread running
// on cpu enters (th.sys, just set), or forgets a previous one.
func (a *Analysis) noteClone(cpu *cpu, th *thread, ev *core.Event, p *classPlan) {
	c := &a.clones
	tid := int64(cpu.cur)
	switch th.sys {
	case -1:
	case c.fork, c.vfork:
		c.flags[tid] = 0
		return
	case c.clone:
		if f, ok := cloneFlags(ev, p); ok {
			c.flags[tid] = f
			return
		}
	}
	if len(c.flags) > 0 {
		delete(c.flags, tid)
	}
}

// newTask: task_newtask (recorded with the task events) gives the flags
// of the call creating a task, clone3's included, in its parent's context
// just before sched_process_fork.
func (a *Analysis) newTask(cpu *cpu, ev *core.Event, p *classPlan) {
	if f, ok := intField(ev, p.f[sNewTaskFlags]); ok && cpu != nil && cpu.cur > 0 {
		a.clones.flags[int64(cpu.cur)] = f
	}
}

// endClone forgets the call of the thread running on cpu, which returns.
func (a *Analysis) endClone(cpu *cpu) {
	if len(a.clones.flags) > 0 {
		delete(a.clones.flags, int64(cpu.cur))
	}
}

// childPID returns the PID of a child that parentTID's call created, and
// false when its flags or its parent's PID are unknown.
func (c *clones) childPID(parentTID, childTID int64, parent *thread) (int32, bool) {
	f, ok := c.flags[parentTID]
	switch {
	case !ok:
		return 0, false
	case f&cloneThread == 0:
		return int32(childTID), fitsInt32(childTID)
	case parent != nil && parent.known&(1<<subPID) != 0:
		return parent.num[subPID], true
	}
	return 0, false
}

// cloneFlags reads clone's flags: the named entry's clone_flags field, or
// the first of a raw entry's arguments, printed in hex ("1200011, 0, ...").
func cloneFlags(ev *core.Event, p *classPlan) (int64, bool) {
	if f, ok := intField(ev, p.f[sCloneFlags]); ok {
		return f, true
	}
	args := textField(ev, p.f[sSysArgs])
	if args == nil {
		return 0, false
	}
	first, _, _ := bytes.Cut(args, []byte(","))
	first = bytes.TrimPrefix(bytes.TrimSpace(first), []byte("0x"))
	f, err := strconv.ParseUint(string(first), 16, 64)
	return int64(f), err == nil
}
