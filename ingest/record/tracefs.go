package record

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Errors a recording can start with; each wraps into a one-line message
// that says what is missing and what to do.
var (
	// ErrNotRoot: tracefs needs root (or CAP_SYS_ADMIN and write access).
	ErrNotRoot = errors.New("recording needs root: run it with sudo")
	// ErrNoTracefs: no tracefs is mounted and it could not be mounted.
	ErrNoTracefs = errors.New("no tracefs: mount it with `mount -t tracefs nodev /sys/kernel/tracing` (kernel CONFIG_FTRACE needed)")
	// ErrNoEvent: an event or group the kernel does not have.
	ErrNoEvent = errors.New("the kernel has no such event")
)

// tracefsMounts are where tracefs is looked for, in order.
var tracefsMounts = []string{"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}

// Tracefs is a tracefs mount.
type Tracefs struct {
	Root    string
	mounted bool // mounted by us: unmounted by Unmount
}

// FindTracefs returns the mounted tracefs; when none is and mount is
// set, it mounts one at /sys/kernel/tracing (undone by [Tracefs.Unmount]).
func FindTracefs(mount bool) (*Tracefs, error) {
	for _, p := range tracefsMounts {
		if st, err := os.Stat(filepath.Join(p, "instances")); err == nil && st.IsDir() {
			return &Tracefs{Root: p}, nil
		}
	}
	if os.Geteuid() != 0 {
		return nil, ErrNotRoot
	}
	if !mount {
		return nil, ErrNoTracefs
	}
	p := tracefsMounts[0]
	if err := unix.Mount("nodev", p, "tracefs", 0, ""); err != nil {
		return nil, fmt.Errorf("%w (mount: %v)", ErrNoTracefs, err)
	}
	return &Tracefs{Root: p, mounted: true}, nil
}

// Unmount unmounts the tracefs if FindTracefs mounted it (and nobody
// else uses it: a busy mount stays).
func (t *Tracefs) Unmount() {
	if t.mounted {
		if unix.Unmount(t.Root, 0) == nil {
			t.mounted = false
		}
	}
}

// instance is a private ftrace instance (instances/<name>).
type instance struct {
	fs   *Tracefs
	name string
	dir  string
}

// instancePrefix names the instances record makes: the prefix and the
// recording process's id.
const instancePrefix = "tracetui-"

// newInstance creates instances/tracetui-<pid>, first removing the
// instances of recordings whose process is gone (killed with SIGKILL).
func (t *Tracefs) newInstance() (*instance, error) {
	t.removeStale()
	name := instancePrefix + strconv.Itoa(os.Getpid())
	dir := filepath.Join(t.Root, "instances", name)
	if err := os.Mkdir(dir, 0o700); err != nil {
		switch {
		case errors.Is(err, os.ErrPermission):
			return nil, fmt.Errorf("%w (creating the tracefs instance %s: %v)", ErrNotRoot, name, err)
		case errors.Is(err, os.ErrExist):
			return nil, fmt.Errorf("tracefs instance %s exists already: another recording of this process? remove it with rmdir %s", name, dir)
		}
		return nil, fmt.Errorf("creating the tracefs instance %s: %w", name, err)
	}
	return &instance{fs: t, name: name, dir: dir}, nil
}

// removeStale removes instances named tracetui-<pid> whose process no
// longer runs: what a recording killed before its cleanup left.
func (t *Tracefs) removeStale() {
	ents, _ := os.ReadDir(filepath.Join(t.Root, "instances"))
	for _, e := range ents {
		pid, err := strconv.Atoi(strings.TrimPrefix(e.Name(), instancePrefix))
		if !strings.HasPrefix(e.Name(), instancePrefix) || err != nil || pid <= 0 {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.Remove(filepath.Join(t.Root, "instances", e.Name()))
		}
	}
}

// path returns the path of a file of the instance.
func (in *instance) path(rel string) string { return filepath.Join(in.dir, rel) }

// write writes s to the instance's file rel.
func (in *instance) write(rel, s string) error {
	f, err := os.OpenFile(in.path(rel), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return fmt.Errorf("tracefs %s: %w", rel, err)
	}
	_, werr := f.WriteString(s)
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("tracefs %s: writing %q: %w", rel, s, werr)
	}
	return cerr
}

// read returns the content of the instance's file rel.
func (in *instance) read(rel string) (string, error) {
	b, err := os.ReadFile(in.path(rel))
	return string(b), err
}

// remove removes the instance: the kernel frees its buffers and disables
// its events. Files of the instance must be closed first (EBUSY else).
func (in *instance) remove() error {
	in.write("tracing_on", "0")
	if err := os.Remove(in.dir); err != nil {
		return fmt.Errorf("removing the tracefs instance %s: %w (remove it with rmdir %s)", in.name, err, in.dir)
	}
	return nil
}

// readFile returns a file of the tracefs root (read only: record never
// writes outside its instance).
func (t *Tracefs) readFile(rel string) ([]byte, error) {
	return os.ReadFile(filepath.Join(t.Root, rel))
}

// pageSize returns the instance's ring-buffer sub-buffer size: the size
// of the pages trace_pipe_raw gives (the system page size on kernels
// without buffer_subbuf_size_kb).
func (in *instance) pageSize() int {
	if s, err := in.read("buffer_subbuf_size_kb"); err == nil {
		if kb, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && kb > 0 {
			return kb << 10
		}
	}
	return os.Getpagesize()
}

// cpus returns the CPUs with a per_cpu directory in the instance
// (possible CPUs), and the online ones among them.
func (in *instance) cpus() (all, online []int, err error) {
	ents, err := os.ReadDir(in.path("per_cpu"))
	if err != nil {
		return nil, nil, fmt.Errorf("tracefs per_cpu: %w", err)
	}
	for _, e := range ents {
		if n, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "cpu")); err == nil && strings.HasPrefix(e.Name(), "cpu") {
			all = append(all, n)
		}
	}
	on, err := os.ReadFile("/sys/devices/system/cpu/online")
	set := parseCPUList(string(bytes.TrimSpace(on)))
	for _, c := range all {
		if err != nil || set[c] {
			online = append(online, c)
		}
	}
	slices.Sort(all)
	slices.Sort(online)
	return all, online, nil
}

// parseCPUList parses a kernel CPU list ("0-3,6").
func parseCPUList(s string) map[int]bool {
	set := map[int]bool{}
	for _, part := range strings.Split(s, ",") {
		lo, hi, rng := strings.Cut(part, "-")
		a, err1 := strconv.Atoi(lo)
		b := a
		var err2 error
		if rng {
			b, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || b < a || b-a > 1<<16 {
			continue
		}
		for c := a; c <= b; c++ {
			set[c] = true
		}
	}
	return set
}
