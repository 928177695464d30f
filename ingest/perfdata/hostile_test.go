package perfdata

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rec builds a little-endian record: header and body.
func rec(typ uint32, misc uint16, body []byte) []byte {
	le := binary.LittleEndian
	b := le.AppendUint16(le.AppendUint16(le.AppendUint32(nil, typ), misc), uint16(8+len(body)))
	return append(b, body...)
}

// trailerLE is the hand-made file's sample_id trailer (pid, tid, time,
// cpu, identifier 3: the dummy event).
func trailerLE(t uint64) []byte {
	le := binary.LittleEndian
	b := le.AppendUint32(le.AppendUint32(nil, 1), 1)
	b = le.AppendUint64(b, t)
	b = le.AppendUint64(b, 0)
	return le.AppendUint64(b, 3)
}

// TestHostileFiles: damaged headers and records are refused with an error
// that says what is wrong (never a panic), and records this reader does
// not read are stepped over and counted in a warning, on the hand-made
// file with one change each.
func TestHostileFiles(t *testing.T) {
	le := binary.LittleEndian
	base := synthFile(false, false)
	patch := func(off int, v uint64) []byte {
		b := append([]byte(nil), base...)
		le.PutUint64(b[off:], v)
		return b
	}
	v1 := append([]byte(nil), base...)
	copy(v1, "PERFFILE")
	auxtrace := le.AppendUint64(nil, 16) // size of the data after the record
	auxtrace = append(auxtrace, make([]byte, 24)...)
	simpleperf := le.AppendUint32(nil, 32768)
	simpleperf = le.AppendUint16(le.AppendUint16(simpleperf, 16), 0) // 32-bit size 16
	simpleperf = append(simpleperf, make([]byte, 8)...)
	unknownID := rec(recSample, miscKernel, le.AppendUint64(make([]byte, 0, 8), 99))
	for _, c := range []struct {
		name  string
		data  []byte
		err   error  // the error Open wraps, nil: opens
		msg   string // in the error, or in a warning
		count int64  // the warning's count
	}{
		{"short", base[:12], ErrNotPerfData, "", 0},
		{"version 1", v1, ErrUnsupported, "PERFFILE", 0},
		{"header size", patch(8, 50), ErrCorrupt, "header size 50", 0},
		{"attr size", patch(16, 40), ErrCorrupt, "attr size 40", 0},
		{"attrs past the end", patch(24, 1<<40), ErrCorrupt, "past the file's end", 0},
		{"unfinished", patch(48, 0), ErrCorrupt, "did not finish", 0},
		{"record size < 8", synthFileWith(false, false, rec(recFinishedRound, 0, nil)[:6:6]), ErrCorrupt, "", 0},
		{"unknown record", synthFileWith(false, false, append(rec(30, 0, make([]byte, 8)), rec(30, 0, make([]byte, 16))...)), nil, "records of type 30", 2},
		{"AUX", synthFileWith(false, false, rec(recAux, 0, append(make([]byte, 24), trailerLE(2500)...))), nil, "AUX", 1},
		{"AUXTRACE and its data", synthFileWith(false, false, append(rec(recAuxtrace, 0, auxtrace), make([]byte, 16)...)), nil, "", 0},
		{"simpleperf record", synthFileWith(false, false, simpleperf), nil, "", 0},
		{"unknown event ID", synthFileWith(false, false, unknownID), ErrCorrupt, "event ID 99", 0},
		{"short COMM", synthFileWith(false, false, rec(recComm, 0, trailerLE(2500))), ErrCorrupt, "less than", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "perf.data")
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			src, err := Open(path, Options{})
			if c.err != nil {
				if err == nil {
					src.Close()
					t.Fatalf("opened, want %v", c.err)
				}
				if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.msg) {
					t.Fatalf("error %v, want %v with %q", err, c.err, c.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			compareLines(t, c.name, script(t, path), synthWant)
			if c.msg == "" {
				return
			}
			for _, w := range src.Warnings() {
				if strings.Contains(w.Message, c.msg) && w.Count == c.count {
					return
				}
			}
			t.Errorf("warnings %+v, want one with %q and count %d", src.Warnings(), c.msg, c.count)
		})
	}
}
