package record

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// Options configures a recording.
type Options struct {
	Output   string    // the trace.dat to write
	Force    bool      // overwrite Output if it exists
	Events   Selection // what to record (ParseEvents)
	BufferKB int       // per-CPU ring-buffer size; 0: DefaultBufferKB
	AllCPUs  bool      // drain every possible CPU, not only the online ones
	Version  string    // written in the VERSION option
	// Mount mounts tracefs when it is not (and unmounts it at the end).
	Mount bool
}

// DefaultBufferKB is the per-CPU buffer size without --buffer-kb: large
// enough that a `go build` on two CPUs loses nothing (README).
const DefaultBufferKB = 8192

// Recorder is a recording in progress: an instance whose events are on
// and one drainer per CPU. Stop or Abort ends it; both restore tracefs.
type Recorder struct {
	opts     Options
	fs       *Tracefs
	in       *instance
	dir      string // the output's directory, for the temporary files
	pageSize int
	cpus     []int
	drainers []*drainer
	tmps     []*os.File
	stopped  atomic.Bool
	wg       sync.WaitGroup
	tasks    tasks // the threads seen in /proc
	done     bool
	failed   chan struct{} // closed when a drainer fails
	failOnce sync.Once
}

// Failed is closed when draining failed (a write error, a full disk):
// the recording should be stopped, and Stop returns the error.
func (r *Recorder) Failed() <-chan struct{} { return r.failed }

// Result describes a written recording.
type Result struct {
	Path   string
	Pages  int64 // ring-buffer pages written
	Events int64 // events recorded (the CPUs' "read events")
	Bytes  int64 // size of the file
	// Lost is the number of events the kernel dropped (its per-CPU
	// overrun and dropped counts); LostPages the pages that say events
	// were lost before them.
	Lost, LostPages int64
	BufferKB        int
	// CPU and MaxRSS are what the recording process used until the file
	// was written (getrusage(RUSAGE_SELF)): its cost beside CMD's.
	CPU    time.Duration
	MaxRSS int64 // bytes
}

// Start checks the output, creates the instance, enables the events and
// starts draining. On error, everything it did is undone.
func Start(opts Options) (r *Recorder, err error) {
	if binary.NativeEndian.Uint16([]byte{1, 0}) != 1 {
		return nil, errors.New("recording on a big-endian machine is not supported (the trace.dat written is little endian): use trace-cmd record")
	}
	if opts.BufferKB <= 0 {
		opts.BufferKB = DefaultBufferKB
	}
	fs, err := FindTracefs(opts.Mount)
	if err != nil {
		return nil, err
	}
	if err := checkOutput(opts.Output, opts.Force); err != nil {
		fs.Unmount()
		return nil, err
	}
	r = &Recorder{opts: opts, fs: fs, dir: filepath.Dir(opts.Output), failed: make(chan struct{})}
	defer func() {
		if err != nil {
			r.Abort()
			r = nil
		}
	}()
	if r.in, err = fs.newInstance(); err != nil {
		return r, err
	}
	in := r.in
	if err := in.write("tracing_on", "0"); err != nil {
		return r, err
	}
	if err := in.write("buffer_size_kb", strconv.Itoa(opts.BufferKB)); err != nil {
		return r, fmt.Errorf("%w (--buffer-kb %d: too large for this machine's memory?)", err, opts.BufferKB)
	}
	if err := opts.Events.check(in.path("events")); err != nil {
		return r, err
	}
	if err := opts.Events.enable(in); err != nil {
		return r, err
	}
	all, online, err := in.cpus()
	if err != nil {
		return r, err
	}
	r.cpus = online
	if opts.AllCPUs {
		r.cpus = all
	}
	r.pageSize = in.pageSize()
	commitSize := 8
	if hp, err := fs.readFile("events/header_page"); err == nil && strings.Contains(string(hp), "commit;\toffset:8;\tsize:4;") {
		commitSize = 4
	}
	base := filepath.Base(opts.Output)
	for _, cpu := range r.cpus {
		tmp, err := os.CreateTemp(r.dir, "."+base+".cpu"+strconv.Itoa(cpu)+"-*")
		if err != nil {
			return r, fmt.Errorf("temporary file for CPU %d pages: %w", cpu, err)
		}
		r.tmps = append(r.tmps, tmp)
		d, err := openDrainer(in, cpu, tmp, r.pageSize, commitSize)
		if err != nil {
			return r, err
		}
		r.drainers = append(r.drainers, d)
	}
	r.tasks.scanProc()
	for _, d := range r.drainers {
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			if d.run(&r.stopped); d.err != nil {
				r.failOnce.Do(func() { close(r.failed) })
			}
		}()
	}
	if err := in.write("tracing_on", "1"); err != nil {
		return r, err
	}
	return r, nil
}

// checkOutput refuses an existing output without force, and an output
// whose directory does not exist.
func checkOutput(path string, force bool) error {
	if path == "" {
		return errors.New("no output file")
	}
	if _, err := os.Lstat(path); err == nil && !force {
		return fmt.Errorf("%s exists: choose another name with -o, or overwrite it with -f", path)
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return fmt.Errorf("output directory %s: %w", filepath.Dir(path), errors.Join(err, errNotDir(st)))
	}
	return nil
}

func errNotDir(st os.FileInfo) error {
	if st != nil && !st.IsDir() {
		return errors.New("not a directory")
	}
	return nil
}

// stopDraining turns tracing off and waits for the drainers to copy the
// last pages.
func (r *Recorder) stopDraining() {
	if r.in != nil {
		r.in.write("tracing_on", "0")
	}
	r.stopped.Store(true)
	r.wg.Wait()
}

// Stop ends the recording: tracing off, the last pages drained, the
// instance removed, then the trace.dat written under a temporary name and
// renamed to the output. Whatever fails, tracefs is restored and the
// temporary files removed.
func (r *Recorder) Stop() (*Result, error) {
	if r.done {
		return nil, errors.New("recording already stopped")
	}
	r.stopDraining()
	res := &Result{Path: r.opts.Output, BufferKB: r.opts.BufferKB}
	var derr error
	var cpus []cpuPages
	for i, d := range r.drainers {
		if derr == nil {
			derr = d.err // the first: the others are most likely the same
		}
		res.Pages += d.pages
		res.LostPages += d.lostPages
		cpus = append(cpus, cpuPages{cpu: d.cpu, file: r.tmps[i], size: d.size})
	}
	meta, stats, lost, events := r.collectMeta()
	res.Lost, res.Events = lost, events
	meta.CPUStats = stats
	r.release() // tracefs as it was before the files are written
	defer r.removeTemps()
	if derr != nil {
		return nil, fmt.Errorf("%w (nothing written: free space there, or record elsewhere with -o)", derr)
	}
	size, err := r.writeFile(meta, cpus)
	res.Bytes = size
	if err != nil {
		return nil, err
	}
	var ru unix.Rusage
	if unix.Getrusage(unix.RUSAGE_SELF, &ru) == nil {
		res.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		res.MaxRSS = ru.Maxrss << 10
	}
	return res, nil
}

// Abort ends the recording without writing: tracefs restored, temporary
// files removed.
func (r *Recorder) Abort() {
	if r.done {
		return
	}
	r.stopDraining()
	r.release()
	r.removeTemps()
}

// release closes the drainers and removes the instance (and unmounts
// tracefs if it was mounted for the recording).
func (r *Recorder) release() {
	if r.done {
		return
	}
	r.done = true
	for _, d := range r.drainers {
		d.close()
	}
	if r.in != nil {
		if err := r.in.remove(); err != nil {
			fmt.Fprintln(os.Stderr, "tracetui: record:", err)
		}
	}
	r.fs.Unmount()
}

// removeTemps closes and removes the per-CPU page files.
func (r *Recorder) removeTemps() {
	for _, t := range r.tmps {
		t.Close()
		os.Remove(t.Name())
	}
	r.tmps = nil
}

// writeFile writes the trace.dat to a temporary file beside the output,
// then gives it the output's name: an error leaves no partial output.
func (r *Recorder) writeFile(meta *Meta, cpus []cpuPages) (int64, error) {
	out := r.opts.Output
	tmp, err := os.CreateTemp(r.dir, "."+filepath.Base(out)+".tmp-*")
	if err != nil {
		return 0, fmt.Errorf("writing %s: %w", out, err)
	}
	defer os.Remove(tmp.Name()) // after the rename or link: nothing
	err = writeDat(tmp, meta, cpus)
	var size int64
	if err == nil {
		err = tmp.Sync()
	}
	if st, serr := tmp.Stat(); serr == nil {
		size = st.Size()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("writing %s: %w", out, err)
	}
	if r.opts.Force {
		err = os.Rename(tmp.Name(), out)
	} else if err = os.Link(tmp.Name(), out); errors.Is(err, os.ErrExist) {
		err = fmt.Errorf("%s appeared while recording: the recording is not written (use -f to overwrite)", out)
	} else if err != nil {
		// A file system without hard links: a rename (which would replace
		// a file created since the check at the start).
		if _, lerr := os.Lstat(out); lerr == nil {
			err = fmt.Errorf("%s appeared while recording: the recording is not written (use -f to overwrite)", out)
		} else {
			err = os.Rename(tmp.Name(), out)
		}
	}
	if err != nil {
		return 0, fmt.Errorf("writing %s: %w", out, err)
	}
	return size, nil
}

// tasks are the threads seen in /proc, by tid: their names and
// processes (tgids), which the trace's events do not carry.
type tasks struct {
	comms map[int]string
	tgids map[int]int
}

// scanProc adds every thread in /proc that t does not hold yet (read at
// the start and at the end of a recording, it holds the threads alive at
// either: those that were born and died in between are named by the
// trace's own events).
func (t *tasks) scanProc() {
	if t.comms == nil {
		t.comms, t.tgids = map[int]string{}, map[int]int{}
	}
	procs, _ := os.ReadDir("/proc")
	for _, p := range procs {
		tgid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		threads, _ := os.ReadDir(filepath.Join("/proc", p.Name(), "task"))
		for _, th := range threads {
			tid, err := strconv.Atoi(th.Name())
			if err != nil {
				continue
			}
			if _, ok := t.comms[tid]; ok {
				continue
			}
			if b, err := os.ReadFile(filepath.Join("/proc", p.Name(), "task", th.Name(), "comm")); err == nil {
				t.comms[tid] = strings.TrimSpace(string(b))
				t.tgids[tid] = tgid
			}
		}
	}
}

// uname returns "sysname nodename release machine", as trace-cmd writes it.
func uname() string {
	var u unix.Utsname
	if unix.Uname(&u) != nil {
		return ""
	}
	s := func(b []byte) string { return unix.ByteSliceToString(b) }
	return strings.Join([]string{s(u.Sysname[:]), s(u.Nodename[:]), s(u.Release[:]), s(u.Machine[:])}, " ")
}
