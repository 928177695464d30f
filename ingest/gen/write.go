package gen

import (
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// Config describes a generated trace.
type Config struct {
	Threads      int    // threads burn forks (>= 1)
	CPUs         int    // CPUs, one stream each (default 4, at most 256)
	Seed         uint64 // the same seed writes the same bytes
	Hostname     string // env hostname (default "tracetui-gen")
	PacketSize   int    // largest packet in bytes (default 1 MiB; a multiple of 4 KiB)
	ForkInterval int64  // mean time between two clones, ns (default 20 µs)
}

// Stats describes what Write wrote.
type Stats struct {
	Events  int64 // events in the data streams
	Bytes   int64 // bytes written (metadata and streams)
	Threads int   // threads forked by burn
	Packets int64 // data packets
}

// The trace's clock: a monotonic clock whose origin is 2024-01-01T00:00:00Z
// (boot), the workload starting one hour after boot.
const (
	clockOffsetNS = 1704067200 * 1_000_000_000
	startNS       = 3600 * 1_000_000_000
)

// MaxCPUs is the largest number of CPUs (streams) Write accepts.
const MaxCPUs = 256

func creationDate(*Config) string { return "20240101T010000+0000" }

func (c Config) withDefaults() (Config, error) {
	if c.CPUs == 0 {
		c.CPUs = 4
	}
	if c.Hostname == "" {
		c.Hostname = "tracetui-gen"
	}
	if c.PacketSize == 0 {
		c.PacketSize = 1 << 20
	}
	if c.ForkInterval == 0 {
		c.ForkInterval = 20 * us
	}
	switch {
	case c.Threads < 1:
		return c, fmt.Errorf("gen: %d threads: want at least 1", c.Threads)
	case c.CPUs < 1 || c.CPUs > MaxCPUs:
		return c, fmt.Errorf("gen: %d CPUs: want 1 to %d", c.CPUs, MaxCPUs)
	case c.PacketSize < pageSize || c.PacketSize%pageSize != 0:
		return c, fmt.Errorf("gen: packet size %d: want a multiple of %d", c.PacketSize, pageSize)
	case c.ForkInterval < 2 || c.ForkInterval > 1_000_000_000:
		return c, fmt.Errorf("gen: fork interval %d ns: want 2 ns to 1 s", c.ForkInterval)
	}
	return c, nil
}

// Write writes the trace into dir, which must not exist or be empty. The
// trace appears there only once complete: it is written into a temporary
// directory beside dir, synced, then renamed. Memory stays bounded by the
// threads alive at once and the packet buffers.
func Write(dir string, cfg Config) (st Stats, err error) {
	cfg, err = cfg.withDefaults()
	if err != nil {
		return st, err
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return st, fmt.Errorf("gen: %s exists and is not empty", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return st, fmt.Errorf("gen: %w", err)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return st, fmt.Errorf("gen: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return st, fmt.Errorf("gen: %w", err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return st, fmt.Errorf("gen: %w", err)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()

	rng := rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	traceUUID, clockUUID := randomUUID(rng), randomUUID(rng)
	meta := packetizeMetadata([]byte(metadataText(&cfg, uuidString(traceUUID), uuidString(clockUUID))), traceUUID)
	if err := writeFile(filepath.Join(tmp, "metadata"), meta); err != nil {
		return st, err
	}
	st.Bytes = int64(len(meta))

	files := make([]*os.File, cfg.CPUs)
	defer func() {
		for _, f := range files {
			if f != nil {
				f.Close()
			}
		}
	}()
	s := &sim{cfg: &cfg, rng: rng}
	for i := range files {
		f, err := os.Create(filepath.Join(tmp, fmt.Sprintf("channel0_%d", i)))
		if err != nil {
			return st, fmt.Errorf("gen: %w", err)
		}
		files[i] = f
		s.out = append(s.out, newStreamWriter(f, traceUUID, uint32(i), cfg.PacketSize))
		s.cpus = append(s.cpus, &cpuState{idle: fmt.Sprintf("swapper/%d", i), last: startNS})
	}
	s.start()
	s.run()
	end := s.endAt
	for _, c := range s.cpus {
		end = max(end, c.last)
	}
	for i, w := range s.out {
		if err := w.finish(uint64(end)); err != nil {
			return st, fmt.Errorf("gen: %w", err)
		}
		if err := files[i].Sync(); err != nil {
			return st, fmt.Errorf("gen: %w", err)
		}
		st.Events += w.events
		st.Bytes += w.written
		st.Packets += w.packets
	}
	st.Threads = s.spawned
	if err := syncDir(tmp); err != nil {
		return st, err
	}
	if _, err := os.Stat(dir); err == nil {
		if err := os.Remove(dir); err != nil { // empty, checked above
			return st, fmt.Errorf("gen: %w", err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		return st, fmt.Errorf("gen: %w", err)
	}
	return st, syncDir(parent)
}

// start sets up the system at the start of the trace: the statedump, the
// threads that exist, their pending wakeups.
func (s *sim) start() {
	t := int64(startNS)
	ncpu := len(s.cpus)
	mk := func(tid, pid, ppid int32, comm string, kind tkind, kernel bool, cpu int) *thread {
		return &thread{tid: tid, pid: pid, ppid: ppid, comm: comm, kind: kind, kernel: kernel, cpu: cpu, state: stBlocked}
	}
	existing := []*thread{
		mk(1, 1, 0, "systemd", kindKworker, false, 0),
		mk(2, 2, 0, "kthreadd", kindKworker, true, 0),
		mk(10, 10, 2, "rcu_sched", kindRCU, true, 0),
	}
	for c := 0; c < ncpu; c++ {
		existing = append(existing, mk(int32(100+c), int32(100+c), 2, fmt.Sprintf("kworker/%d:1", c), kindKworker, true, c))
	}
	s.sshd = mk(1200, 1200, 1, "sshd", kindSSHD, false, 0)
	consumerd := mk(1300, 1300, 1, "lttng-consumerd", kindConsumerd, false, ncpu-1)
	s.shell = mk(4000, 4000, 1200, "bash", kindShell, false, 1%ncpu)
	existing = append(existing, s.sshd, consumerd, s.shell)
	s.nextTID = 4001

	// The statedump, on CPU 0.
	t = s.emit(0, t, evStatedumpStart)
	for _, th := range existing {
		e := s.pay(0)
		e.i32(th.tid)
		e.i32(th.pid)
		e.i32(th.ppid)
		e.comm(th.comm)
		if th.kernel {
			e.i32(1)
		} else {
			e.i32(0)
		}
		e.i32(5) // mode UNKNOWN
		e.i32(1) // submode UNKNOWN
		if th == s.shell {
			e.i32(6) // RUN
		} else {
			e.i32(5) // WAIT
		}
		e.u32(uint32(th.cpu))
		if th.kernel {
			e.u64(0)
		} else {
			e.u64(0xffff_8880_0000_0000 + uint64(th.tid)*0x400)
		}
		t = s.emit(0, t, evStatedumpProcess)
	}
	t = s.emit(0, t, evStatedumpEnd)

	// bash runs on its CPU and is about to start burn; the others sleep.
	s.shell.state = stRunning
	s.cpus[s.shell.cpu].cur = s.shell
	s.after(s.shell, t, 300*us)
	for _, th := range existing {
		switch th.kind {
		case kindKworker:
			if th.tid >= 100 {
				s.timerWake(th, t+s.between(0, 4*ms))
			}
		case kindRCU:
			s.timerWake(th, t+s.between(0, 3*ms))
		case kindConsumerd:
			th.sys = evSysExitNanosleep
			s.timerWake(th, t+s.between(1*ms, 20*ms))
		case kindSSHD:
			th.sys, th.sysRet = evSysExitRead, 52
		}
	}
	s.push(action{t: t + s.between(1*ms, 5*ms), kind: aNetIRQ})
}

func randomUUID(rng *rand.Rand) [16]byte {
	var u [16]byte
	for i := range u {
		u[i] = byte(rng.Uint32())
	}
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // variant
	return u
}

func uuidString(u [16]byte) string {
	return fmt.Sprintf("%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:16])
}

func writeFile(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("gen: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("gen: %w", err)
	}
	return f.Close()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("gen: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("gen: %w", err)
	}
	return nil
}
