package kstats

import (
	"strconv"

	"github.com/tracetui/tracetui/core"
)

// The recorder works on two goroutines. Modify, on the analyses'
// goroutine, passes the change on to the history, tells from the key's
// path whether the statistics read it (once per key) and queues the
// changes they read; a batch full, a goroutine of its own sums it (apply)
// while the next one fills. The index build's critical path is the
// analyses' goroutine, with the other core partly idle: summed there, the
// statistics cost a 50 000-thread trace a third of its build time.
//
// The queue keeps the order of the changes, and the sums are made in that
// order, one batch after the other: the report is the one the changes
// summed one at a time would give. The fields of follow are the caller's
// side; the rest of Recorder is the worker's while a batch is in flight
// (between two batches, the channel orders the accesses).

// DefaultBatch is a Recorder's Batch: the changes a batch holds (about
// 450 KB).
const DefaultBatch = 8192

// key kinds of the caller's side, per key
const (
	kindUnknown  uint8    = iota // not met yet
	kindIgnored                  // not read by the statistics
	kindFollowed                 // queued
	kindCounted  = 1 << 7        // a Threads/<tid> key counted against MaxThreads
)

// follow is the caller's side of a Recorder.
type follow struct {
	roots    [3]core.Key // Threads, CPUs, IRQ_names (-1 while absent)
	kinds    []uint8     // by key
	nthreads int         // Threads/<tid> keys met
	cur      *batch      // filling
	spare    *batch      // free, or in flight
	inflight chan struct{}
}

// batch is a run of queued changes.
type batch struct {
	changes []queued
	descs   []keyDesc // the keys met first in this batch, in order
}

// queued is a change of a followed key; fresh: the key's first, its
// description the batch's next.
type queued struct {
	key   core.Key
	fresh bool
	t     core.Time
	v     core.Value
}

// keyDesc is what a followed key's path tells.
type keyDesc struct {
	role  uint8
	owner core.Key // its Threads/<tid> or CPUs/<n> key
	id    int32    // that thread's tid or CPU's number
	n     int64    // the IRQ or vector number
}

// Modify implements [core.StateSink].
func (r *Recorder) Modify(key core.Key, t core.Time, v core.Value) error {
	if err := r.StateSink.Modify(key, t, v); err != nil {
		return err
	}
	if r.off {
		return nil
	}
	if int(key) >= len(r.kinds) {
		r.kinds = append(r.kinds, make([]uint8, int(key)+1-len(r.kinds)+len(r.kinds))...)
	}
	fresh := false
	switch r.kinds[key] &^ kindCounted {
	case kindIgnored:
		return nil
	case kindUnknown:
		d, ok := r.describe(key)
		if r.off {
			return nil
		}
		if !ok {
			r.kinds[key] |= kindIgnored
			return nil
		}
		r.kinds[key] |= kindFollowed
		b := r.filling()
		b.descs = append(b.descs, d)
		fresh = true
	}
	b := r.filling()
	b.changes = append(b.changes, queued{key: key, fresh: fresh, t: t, v: v})
	if len(b.changes) >= r.Batch {
		r.dispatch()
	}
	return nil
}

// filling returns the batch that fills, made on the first change at its
// full length: grown by append, a batch's copies came to 2 MB.
func (r *Recorder) filling() *batch {
	if r.cur == nil {
		r.cur = &batch{changes: make([]queued, 0, r.Batch)}
	}
	return r.cur
}

// dispatch hands the filled batch to a goroutine, once the one before is
// summed.
func (r *Recorder) dispatch() {
	r.wait()
	b := r.cur
	r.cur, r.spare = r.spare, b
	if r.cur != nil {
		r.cur.changes, r.cur.descs = r.cur.changes[:0], r.cur.descs[:0]
	}
	done := make(chan struct{})
	r.inflight = done
	go func() {
		defer close(done)
		r.sum(b)
	}()
}

// wait returns once no batch is in flight.
func (r *Recorder) wait() {
	if r.inflight != nil {
		<-r.inflight
		r.inflight = nil
	}
}

// drain sums every queued change on the caller's goroutine: the worker's
// fields are the caller's from here on.
func (r *Recorder) drain() {
	r.wait()
	if r.cur != nil && !r.off {
		r.sum(r.cur)
		r.cur.changes, r.cur.descs = r.cur.changes[:0], r.cur.descs[:0]
	}
}

// sum applies a batch's changes in order.
func (r *Recorder) sum(b *batch) {
	d := 0
	for i := range b.changes {
		q := &b.changes[i]
		var desc *keyDesc
		if q.fresh {
			desc = &b.descs[d]
			d++
		}
		r.apply(q.key, q.t, q.v, desc)
	}
}

// root returns the key of a top-level attribute (-1 while it is absent).
func (r *Recorder) root(i int, name string) core.Key {
	if r.roots[i] < 0 {
		if k, ok := r.Attributes().Child(core.Root, name); ok {
			r.roots[i] = k
		}
	}
	return r.roots[i]
}

// describe tells key's role from its path (the parsing of stats.Compute's
// findKeys), false when the statistics do not read key. Past MaxThreads
// threads it stops the recorder.
func (r *Recorder) describe(key core.Key) (keyDesc, bool) {
	at := r.Attributes()
	parent := at.Parent(key)
	if parent < 0 {
		return keyDesc{}, false
	}
	threads, cpus, names := r.root(0, core.AttrThreads), r.root(1, core.AttrCPUs), r.root(2, core.AttrIRQNames)
	switch {
	case threads >= 0 && parent == threads:
		return r.threadDesc(key, roleStatus)
	case names >= 0 && parent == names:
		n, err := strconv.ParseInt(at.Name(key), 10, 64)
		return keyDesc{role: roleIRQName, n: n}, err == nil
	}
	gp := at.Parent(parent)
	switch {
	case gp < 0:
		return keyDesc{}, false
	case threads >= 0 && gp == threads:
		var role uint8
		switch at.Name(key) {
		case core.AttrExecName:
			role = roleName
		case core.AttrPID:
			role = rolePID
		case core.AttrPPID:
			role = rolePPID
		case core.AttrSystemCall:
			role = roleSys
		case core.AttrSyscallError:
			role = roleSysErr
		case core.AttrPrio:
			role = rolePrio
		default:
			return keyDesc{}, false
		}
		return r.threadDesc(parent, role)
	case cpus >= 0 && gp == cpus && at.Name(key) == core.AttrCurrentThread:
		return r.cpuDesc(parent, roleCurrent, 0)
	}
	if cpus < 0 || at.Parent(gp) != cpus {
		return keyDesc{}, false
	}
	n, err := strconv.ParseInt(at.Name(key), 10, 64)
	if err != nil {
		return keyDesc{}, false
	}
	switch at.Name(parent) {
	case core.AttrIRQs:
		return r.cpuDesc(gp, roleIRQ, n)
	case core.AttrSoftIRQs:
		return r.cpuDesc(gp, roleSoft, n)
	}
	return keyDesc{}, false
}

// threadDesc describes a key of thread k (Threads/<tid>), false for the
// idle threads ("0_<cpu>") and names that are no tid.
func (r *Recorder) threadDesc(k core.Key, role uint8) (keyDesc, bool) {
	tid, err := strconv.ParseInt(r.Attributes().Name(k), 10, 32)
	if err != nil || tid <= 0 {
		return keyDesc{}, false
	}
	if r.kinds[k]&kindCounted == 0 { // k is key or its parent: Modify grew kinds past it
		if r.MaxThreads > 0 && r.nthreads >= r.MaxThreads {
			r.wait()
			r.stop()
			return keyDesc{}, false
		}
		r.kinds[k] |= kindCounted
		r.nthreads++
	}
	return keyDesc{role: role, owner: k, id: int32(tid)}, true
}

// cpuDesc describes a key of CPU k (CPUs/<n>), false when n is no number.
func (r *Recorder) cpuDesc(k core.Key, role uint8, n int64) (keyDesc, bool) {
	num, err := strconv.ParseInt(r.Attributes().Name(k), 10, 32)
	return keyDesc{role: role, owner: k, id: int32(num), n: n}, err == nil
}
