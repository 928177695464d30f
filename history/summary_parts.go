package history

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/tracetui/tracetui/core"
)

// The change log is written in parts: one per run of partSlots consecutive
// slots (the last part, sumPartsMax-1, takes every slot past the others),
// each a sequence of chunks of one temporary file (a part's buffer
// appended when full), whose records' ends are deltas from the previous
// record's in the same part. One file, not one per part: a build must not
// hold hundreds of files open (issue 32: it failed under ulimit -n 128). The pass reads each part back once, so that
// one part's intervals only are in memory (9 bytes each); a part holding
// more than batchMax records is read once per batch of its slots. The log
// was one file, which the pass split into parts before reading them back,
// decoding it twice and writing it twice on the build's critical path; the
// tree side now writes the parts as it goes.

const (
	// sumPartSlots is the slots of a part: 200 000 threads make 98 parts.
	// Reading a part back scatters its records to their slots' runs: with
	// 2 048 slots the places written to stay in the cache (the pass's read
	// took about a quarter less CPU than with 32 768).
	sumPartSlots = 1 << 11
	// sumPartsMax is the most parts (a file and a buffer each): 2 M slots.
	sumPartsMax = 1024
	// sumPartBuffer is a part's write buffer: 16 MB for sumPartsMax parts.
	sumPartBuffer = 1 << 14
	// sumBatchMax is the most records the pass reads back at once (9 bytes
	// each in memory, a start and a value: 18 MB per worker), so that its
	// memory does not grow with the trace: it runs beside the end of the
	// build (the rows, the attribute tree's encoding), not after it. A
	// part of more records is read once per batch: at 200 000 threads the
	// first part, which holds the CPUs' busy rows (4 M records), is read 2
	// to 3 times. With 1 M records per batch, read 4 to 5 times, the pass
	// took 0.08 s more CPU (a CPU profile under load: 0.83 s instead of
	// 0.75 s) for 15 MB less peak RSS. Main's pass, on the caller's
	// goroutine, took 0.63 s in the same conditions, reading fewer records
	// but after everything else.
	sumBatchMax = 1 << 21
)

// logPart is a part of the change log.
type logPart struct {
	w       *bufio.Writer // over chunkWriter: appends the part's chunks to the log file
	chunks  []logChunk    // the part's bytes, in order
	lastEnd core.Time     // end of the part's last record
	records int64
}

// logChunk is a run of a part's bytes in the log file.
type logChunk struct{ off, n int64 }

// logFile is the change log's one temporary file, appended to by the
// parts' buffers on the summaries' goroutine and read back by the pass.
type logFile struct {
	f   *os.File
	end int64
}

// chunkWriter appends what a part's buffer flushes to the log file as the
// part's next chunk.
type chunkWriter struct {
	log *logFile
	p   *logPart
}

func (c chunkWriter) Write(b []byte) (int, error) {
	n, err := c.log.f.WriteAt(b, c.log.end)
	if n > 0 {
		c.p.chunks = append(c.p.chunks, logChunk{c.log.end, int64(n)})
		c.log.end += int64(n)
	}
	return n, err
}

// reader returns a reader of the part's bytes (through ReadAt: several of
// the pass's goroutines may read one part at once).
func (p *logPart) reader(f *os.File) io.Reader {
	rs := make([]io.Reader, len(p.chunks))
	for i, c := range p.chunks {
		rs[i] = io.NewSectionReader(f, c.off, c.n)
	}
	return io.MultiReader(rs...)
}

// partOf returns the part that holds slot's records.
func (s *summaryBuild) partOf(slot int) int { return min(slot/s.partSlots, sumPartsMax-1) }

// partRange returns the slots of part k, lo to hi-1.
func (s *summaryBuild) partRange(k int) (lo, hi int) {
	lo, hi = k*s.partSlots, min((k+1)*s.partSlots, s.nslots)
	if k == sumPartsMax-1 {
		hi = s.nslots
	}
	return lo, hi
}

// partCount returns the number of parts the slots span.
func (s *summaryBuild) partCount() int {
	return min((s.nslots+s.partSlots-1)/s.partSlots, sumPartsMax)
}

// appendRecord writes a record to the part of its slot, creating the part.
func (s *summaryBuild) appendRecord(e sumEntry) error {
	k := s.partOf(int(e.slot))
	for k >= len(s.parts) {
		s.parts = append(s.parts, nil)
	}
	p := s.parts[k]
	if p == nil {
		if s.logFile == nil {
			f, err := createTemp(s.path, sumLogSuffix)
			if err != nil {
				return err
			}
			s.logFile = &logFile{f: f}
		}
		p = &logPart{lastEnd: s.start}
		p.w = bufio.NewWriterSize(chunkWriter{s.logFile, p}, sumPartBuffer)
		s.parts[k] = p
	}
	s.rec = binary.AppendUvarint(s.rec[:0], uint64(e.slot))
	s.rec = binary.AppendUvarint(s.rec, uint64(e.end-p.lastEnd))
	s.rec = append(s.rec, e.v)
	if _, err := p.w.Write(s.rec); err != nil {
		return fmt.Errorf("history: write the summaries' change log: %w", err)
	}
	p.lastEnd = e.end
	p.records++
	return nil
}

// flushParts writes the parts' buffers out (the pass, before reading).
func (s *summaryBuild) flushParts() error {
	for _, p := range s.parts {
		if p == nil {
			continue
		}
		if err := p.w.Flush(); err != nil {
			return fmt.Errorf("history: write the summaries' change log: %w", err)
		}
	}
	return nil
}

// removeParts closes and removes the log file.
func (s *summaryBuild) removeParts() {
	if s.logFile != nil {
		removeTemp(s.logFile.f)
		s.logFile = nil
	}
	s.parts = nil
}

// batches cuts slots lo..hi-1 into runs of consecutive slots of at most
// max records each (a slot with more is a batch alone): it returns the
// runs' bounds (batch k is slots bounds[k] to bounds[k+1]-1) and their
// records.
func (s *summaryBuild) batches(lo, hi int, max int64) (bounds []int, records []int64) {
	bounds = []int{lo}
	for lo < hi {
		end, n := lo, int64(0)
		for end < hi && (end == lo || n+int64(s.live(end)) <= max) {
			n += int64(s.live(end))
			end++
		}
		bounds, records = append(bounds, end), append(records, n)
		lo = end
	}
	return bounds, records
}
