package history

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/core"
)

// kernelModel is a kernel-like trace, the case attribute classes are for:
// threads created one after the other, each with its keys created in a
// row (Threads/<tid>, then Exec_name, PID, PPID, Prio, System_call), so
// every kind of attribute is interleaved with the others in key order, as
// the kernel analysis makes them. A thread's status changes often (and
// its System_call with it); its Exec_name, PID, PPID and Prio are set when
// it appears and its Exec_name sometimes once more (an exec).
type kernelModel struct {
	threads int
	changes int // status changes per thread
	seed    uint64
}

const kernelT = 2_000_000_000 // 2 s

// kernelSubs are the sub-attributes of a thread, in creation order.
var kernelSubs = []string{"Exec_name", "PID", "PPID", "Prio", "System_call"}

type kernelEvent struct {
	t   core.Time
	key core.Key
	v   core.Value
}

// feed adds the model's keys to s and makes its changes, in time order.
func (m kernelModel) feed(s core.StateSink) error {
	tr := s.Attributes()
	threads := tr.Add(core.Root, "Threads")
	r := rand.New(rand.NewPCG(m.seed, uint64(m.threads)))
	var evs []kernelEvent
	syscalls := []string{"read", "write", "futex", "epoll_wait", "poll"}
	for i := range m.threads {
		tid := 1000 + i
		th := tr.Add(threads, strconv.Itoa(tid))
		var sub [5]core.Key
		for j, name := range kernelSubs {
			sub[j] = tr.Add(th, name)
		}
		born := core.Time(i) * kernelT / core.Time(2*m.threads)
		evs = append(evs,
			kernelEvent{born, sub[0], core.String("proc-" + strconv.Itoa(r.IntN(500)))},
			kernelEvent{born, sub[1], core.Int32(int32(tid))},
			kernelEvent{born, sub[2], core.Int32(int32(1000 + r.IntN(i+1)))},
			kernelEvent{born, sub[3], core.Int32(20)},
		)
		if r.IntN(3) == 0 {
			evs = append(evs, kernelEvent{born + core.Time(r.Int64N(int64(kernelT-born))), sub[0], core.String("exec-" + strconv.Itoa(r.IntN(500)))})
		}
		for range m.changes {
			at := born + core.Time(r.Int64N(int64(kernelT-born)))
			st := int32(1 + r.IntN(5))
			evs = append(evs, kernelEvent{at, th, core.Int32(st)})
			sc := core.Null()
			if st == 3 { // in a system call
				sc = core.String(syscalls[r.IntN(len(syscalls))])
			}
			evs = append(evs, kernelEvent{at, sub[4], sc})
		}
	}
	slices.SortStableFunc(evs, func(a, b kernelEvent) int { return cmp.Compare(a.t, b.t) })
	for _, e := range evs {
		if err := s.Modify(e.key, e.t, e.v); err != nil {
			return err
		}
	}
	return nil
}

func (m kernelModel) build(tb testing.TB, path string, o Options) {
	tb.Helper()
	b, err := Create(path, 0, o)
	if err != nil {
		tb.Fatal(err)
	}
	if err := m.feed(b); err != nil {
		tb.Fatal(err)
	}
	if err := b.Close(kernelT); err != nil {
		tb.Fatal(err)
	}
}

// psKeys returns the process tree's keys: every thread's Exec_name and
// PPID, in thread order (not key order, as the browser asks for them).
func psKeys(tr *core.AttributeTree) []core.Key {
	var ks []core.Key
	threads, _ := tr.Child(core.Root, "Threads")
	tr.EachChild(threads, func(th core.Key) {
		for _, name := range []string{"Exec_name", "PPID"} {
			if k, ok := tr.Child(th, name); ok {
				ks = append(ks, k)
			}
		}
	})
	return ks
}
