package record

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/tracetui/tracetui/ingest/tracedat"
)

// The writer is checked without root on trace-cmd's own recording
// (ingest/tracedat/testdata/tiny-v7.dat, uncompressed): its metadata and
// pages, written again by writeDat, must read the same with trace-cmd
// report and with package tracedat.

const tinyV7 = "../tracedat/testdata/tiny-v7.dat"

// readV7 takes an uncompressed little-endian version 7 file apart into
// a Meta and its CPUs' pages (written to files in dir).
func readV7(t *testing.T, path, dir string) (*Meta, []cpuPages) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	pos := len(tracedat.Magic) + 2 + 2
	m := &Meta{PageSize: int(le.Uint32(b[pos:]))}
	pos += 4
	if !bytes.HasPrefix(b[pos:], []byte("none\x00")) {
		t.Fatalf("%s: compressed: not handled", path)
	}
	pos += len("none\x00")
	pos += bytes.IndexByte(b[pos:], 0) + 1
	var cpus []cpuPages
	body := func(off uint64) []byte { return b[off+16 : off+16+le.Uint64(b[off+8:])] }
	sized := func(s []byte, n int) ([]byte, []byte) {
		var size uint64
		if n == 4 {
			size = uint64(le.Uint32(s))
		} else {
			size = le.Uint64(s)
		}
		return s[n : n+int(size)], s[n+int(size):]
	}
	for next := le.Uint64(b[pos:]); next != 0; {
		opts := body(next)
		next = 0
		for len(opts) > 0 {
			id, n := le.Uint16(opts), le.Uint32(opts[2:])
			data := opts[6 : 6+n]
			opts = opts[6+n:]
			switch id {
			case tracedat.OptDone:
				next = le.Uint64(data)
			case tracedat.OptHeaderInfo:
				s := body(le.Uint64(data))
				m.HeaderPage, s = sized(s[len("header_page\x00"):], 8)
				m.HeaderEvent, _ = sized(s[len("header_event\x00"):], 8)
			case tracedat.OptFtraceEvents, tracedat.OptEventFormats:
				s := body(le.Uint64(data))
				systems := uint32(1)
				if id == tracedat.OptEventFormats {
					systems, s = le.Uint32(s), s[4:]
				}
				for ; systems > 0; systems-- {
					system := "ftrace"
					if id == tracedat.OptEventFormats {
						i := bytes.IndexByte(s, 0)
						system, s = string(s[:i]), s[i+1:]
					}
					count := le.Uint32(s)
					s = s[4:]
					for ; count > 0; count-- {
						var text []byte
						text, s = sized(s, 8)
						ev := eventFormat{system: system, text: text}
						if id == tracedat.OptFtraceEvents {
							m.Ftrace = append(m.Ftrace, ev)
						} else {
							m.Formats = append(m.Formats, ev)
						}
					}
				}
			case tracedat.OptKallsyms:
				m.Kallsyms, _ = sized(body(le.Uint64(data)), 4)
			case tracedat.OptPrintk:
				m.Printk, _ = sized(body(le.Uint64(data)), 4)
			case tracedat.OptCmdlines:
				m.Cmdlines, _ = sized(body(le.Uint64(data)), 8)
			case tracedat.OptTraceClock:
				m.TraceClock = string(bytes.TrimRight(data, "\x00"))
			case tracedat.OptUname:
				m.Uname = string(bytes.TrimRight(data, "\x00"))
			case tracedat.OptCPUCount:
				m.CPUCount = int(le.Uint32(data))
			case tracedat.OptBuffer:
				r := data[8:]
				r = r[bytes.IndexByte(r, 0)+1:] // name
				i := bytes.IndexByte(r, 0)
				m.Clock, r = string(r[:i]), r[i+1+4:]
				n := le.Uint32(r)
				r = r[4:]
				for ; n > 0; n-- {
					cpu, off, size := le.Uint32(r), le.Uint64(r[4:]), le.Uint64(r[12:])
					r = r[20:]
					f, err := os.CreateTemp(dir, "cpu")
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { f.Close() })
					if _, err := f.Write(b[off : off+size]); err != nil {
						t.Fatal(err)
					}
					cpus = append(cpus, cpuPages{cpu: int(cpu), file: f, size: int64(size)})
				}
			}
		}
	}
	return m, cpus
}

// report returns tracedat's report of path.
func report(t *testing.T, path string) string {
	t.Helper()
	s, err := tracedat.Open(path, tracedat.Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer s.Close()
	var out bytes.Buffer
	if _, _, err := s.Report(&out, 0); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out.String()
}

// TestWriteDatRewritesTraceCmdFile: tiny-v7.dat written again, with and
// without compressed metadata, reads the same with both readers.
func TestWriteDatRewritesTraceCmdFile(t *testing.T) {
	dir := t.TempDir()
	m, cpus := readV7(t, tinyV7, dir)
	if len(cpus) == 0 || len(m.Formats) == 0 || len(m.Kallsyms) == 0 || len(m.Cmdlines) == 0 {
		t.Fatalf("%s: %d CPUs, %d formats, %d kallsyms bytes, %d cmdlines bytes", tinyV7, len(cpus), len(m.Formats), len(m.Kallsyms), len(m.Cmdlines))
	}
	want := report(t, tinyV7)
	var tcWant []byte
	_, err := exec.LookPath("trace-cmd")
	if err == nil {
		if tcWant, err = exec.Command("trace-cmd", "report", tinyV7).Output(); err != nil {
			t.Fatalf("trace-cmd report %s: %v", tinyV7, err)
		}
	} else {
		t.Log("trace-cmd is not installed (Debian package trace-cmd): the files written are only read by package tracedat")
	}
	for _, compress := range []bool{false, true} {
		m.Compress = compress
		path := filepath.Join(dir, "rewritten.dat")
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := writeDat(f, m, cpus); err != nil {
			t.Fatal(err)
		}
		f.Close()
		if got := report(t, path); got != want {
			t.Errorf("compress %v: tracedat reads the rewritten file differently:\n%s", compress, firstDiff(got, want))
		}
		if tcWant != nil {
			cmd := exec.Command("trace-cmd", "report", path)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			got, err := cmd.Output()
			if err != nil || stderr.Len() > 0 {
				t.Errorf("compress %v: trace-cmd report: %v: %s", compress, err, stderr.String())
			}
			if !bytes.Equal(got, tcWant) {
				t.Errorf("compress %v: trace-cmd reads the rewritten file differently:\n%s", compress, firstDiff(string(got), string(tcWant)))
			}
		}
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(got, want string) string {
	g, w := bytes.Split([]byte(got), []byte("\n")), bytes.Split([]byte(want), []byte("\n"))
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl []byte
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if !bytes.Equal(gl, wl) {
			return "line " + strconv.Itoa(i+1) + ":\n got  " + string(gl) + "\n want " + string(wl)
		}
	}
	return "(same lines)"
}
