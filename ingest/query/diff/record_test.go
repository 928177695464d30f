package diff

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tracetui/tracetui/core"
	"github.com/tracetui/tracetui/ingest/record"
	"github.com/tracetui/tracetui/ingest/tracedat"
)

// The committed pair: two `tracetui record` runs of shCommand (events
// recordEvents), shrunk by ingest/tracedat's TestShrink
// (TRACETUI_TRACEDAT_SHRINK7: kallsyms and unused formats cut), 34 and 36 KB.
const (
	shCommand    = "sleep 0.02 & sleep 0.01 & (echo x | cat >/dev/null); wait"
	recordEvents = "-sched,-irq,-timer,-raw_syscalls,-workqueue,sched:sched_switch,sched:sched_wakeup,sched:sched_wakeup_new," +
		"sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit"
)

// forkTree is a recording's tasks as its sched_process_fork and
// sched_process_exec events say, read straight from the reader (a peer
// of the index's process tree): each task's parent and comm (the child's
// at fork, the program's base name after exec).
type forkTree struct {
	parent map[int64]int64
	comm   map[int64]string
	order  []int64 // the tasks forked, in time order
}

func readForkTree(t *testing.T, file string) forkTree {
	t.Helper()
	src, err := tracedat.Open(file, tracedat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	f := forkTree{parent: map[int64]int64{}, comm: map[int64]string{}}
	num := func(ev *core.Event, name string) int64 {
		v, ok := ev.Field(ev.Class.FieldIndex(name)).AsInt()
		if !ok {
			t.Fatalf("%s: no integer %s", ev.Class.Name, name)
		}
		return v
	}
	for {
		ev, err := src.Next()
		if err == io.EOF {
			return f
		}
		if err != nil {
			t.Fatal(err)
		}
		switch strings.TrimPrefix(ev.Class.Name, "sched:") {
		case "sched_process_fork":
			child := num(ev, "child_pid")
			f.parent[child] = num(ev, "parent_pid")
			f.comm[child] = string(ev.Field(ev.Class.FieldIndex("child_comm")).Bytes)
			f.order = append(f.order, child)
			if _, ok := f.comm[f.parent[child]]; !ok {
				f.comm[f.parent[child]] = string(ev.Field(ev.Class.FieldIndex("parent_comm")).Bytes)
			}
		case "sched_process_exec":
			name := path.Base(string(ev.Field(ev.Class.FieldIndex("filename")).Bytes))
			f.comm[num(ev, "pid")] = name[:min(len(name), 15)]
		}
	}
}

// command returns the tasks of the recorded command by their chain of
// comms from the command down ("sh > sh > cat"): root and its
// descendants when root is known (not 0), else the tasks below the
// outermost "sh" of each chain. The root matters on a busy machine: a
// shell of some other program running sleep during the recording would
// otherwise count as the command's.
func (f forkTree) command(root int64) map[int64]string {
	out := map[int64]string{}
	for _, tid := range f.order {
		var chain []string
		in := false
		below := root == 0
		for p, n := tid, 0; n < 64; p, n = f.parent[p], n+1 {
			c, known := f.comm[p]
			if !known {
				break
			}
			chain = append(chain, c)
			if p == root {
				below = true
				break
			}
			if _, forked := f.parent[p]; !forked {
				break
			}
		}
		if !below {
			continue
		}
		slices.Reverse(chain)
		// The command is the outermost "sh" of the chain.
		for i, c := range chain {
			if c == "sh" {
				chain, in = chain[i:], true
				break
			}
		}
		if in {
			out[tid] = strings.Join(chain, " > ")
		}
	}
	return out
}

// checkMatched: every task of the command in base is on a thread row
// whose NEW thread is a task of the same chain of comms in next, the row
// named by that chain ("… > sh > sleep | sleep #1"), and the tids differ
// (the match is not by tid). The roots are the command's pid on each side,
// 0 where unknown.
func checkMatched(t *testing.T, baseFile, newFile string, baseRoot, newRoot int64) {
	t.Helper()
	ctx := context.Background()
	b, n := Side{Name: baseFile, History: open(t, baseFile)}, Side{Name: newFile, History: open(t, newFile)}
	r, err := Compute(ctx, b, n, Options{Top: MaxTop})
	if err != nil {
		t.Fatal(err)
	}
	bt, nt := readForkTree(t, baseFile).command(baseRoot), readForkTree(t, newFile).command(newRoot)
	if len(bt) < 4 || len(bt) != len(nt) {
		t.Fatalf("the command's tasks: %d in BASE %v, %d in NEW %v", len(bt), bt, len(nt), nt)
	}
	rowOf := map[int32]string{}
	for k, tid := range r.BaseIDs.Threads {
		rowOf[tid] = k
	}
	sameTID := 0
	for tid, chain := range bt {
		k, ok := rowOf[int32(tid)]
		if !ok {
			t.Fatalf("BASE task %d (%s) is on no thread row", tid, chain)
		}
		other, ok := r.NewIDs.Threads[k]
		if !ok {
			t.Fatalf("row %q (BASE task %d) has no NEW thread", k, tid)
		}
		if nt[int64(other)] != chain {
			t.Errorf("row %q: BASE task %d is %q, NEW task %d is %q", k, tid, chain, other, nt[int64(other)])
		}
		parts := strings.Split(chain, " > ")
		if !strings.Contains(k, chain+" | "+parts[len(parts)-1]+" #") {
			t.Errorf("row %q does not name the task's place %q", k, chain)
		}
		if int64(other) == tid {
			sameTID++
		}
	}
	if sameTID == len(bt) {
		t.Fatal("every task has the same tid on both sides: nothing shows the match is not by tid")
	}
	t.Logf("%d tasks of %q matched by place and name", len(bt), shCommand)
}

// TestMatchCommittedRecordings: the threads of two recordings of one
// command (committed) line up by their place in the process tree and
// name, not by tid.
func TestMatchCommittedRecordings(t *testing.T) {
	checkMatched(t, "testdata/sh-1.dat", "testdata/sh-2.dat", 0, 0)
}

// TestMatchRecordedHere records the command twice here (root and tracefs
// needed, else it skips) and matches its threads the same way.
func TestMatchRecordedHere(t *testing.T) {
	sel, err := record.ParseEvents(recordEvents)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var files []string
	var roots []int64
	for i := range 2 {
		out := filepath.Join(dir, []string{"base.dat", "new.dat"}[i])
		r, err := record.Start(record.Options{Output: out, Events: sel, BufferKB: 1024, Mount: true})
		if errors.Is(err, record.ErrNotRoot) || errors.Is(err, record.ErrNoTracefs) {
			t.Skipf("recording is not possible here (root and tracefs needed): %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", shCommand)
		var output strings.Builder
		cmd.Stdout, cmd.Stderr = &output, &output
		if err := cmd.Start(); err != nil {
			r.Abort()
			t.Fatal(err)
		}
		roots = append(roots, int64(cmd.Process.Pid))
		if err := cmd.Wait(); err != nil {
			r.Abort()
			t.Fatalf("%s: %v\n%s", shCommand, err, output.String())
		}
		if _, err := r.Stop(); err != nil {
			t.Fatal(err)
		}
		files = append(files, out)
	}
	checkMatched(t, files[0], files[1], roots[0], roots[1])
}
