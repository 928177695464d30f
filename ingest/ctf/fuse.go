package ctf

// Fusing: a run of byte-aligned, fixed-size fields (integers without a
// clock, an event id or an enum label to look up, and char arrays) has
// static byte offsets from the run's start, so the run decodes with one
// bounds check and no alignment: the opBlock superinstruction. LTTng
// payloads are such runs, so most events decode in one or two ops.

// blockKind is the kind of a field inside a block.
type blockKind uint8

const (
	bU8 blockKind = iota
	bU16L
	bU32L
	bU64L
	bU16B
	bU32B
	bU64B
	bText
)

// blockField is one field of an opBlock.
type blockField struct {
	kind  blockKind
	sext  uint8
	off   uint32 // byte offset from the block start
	n     uint32 // bytes (text)
	slot  int32
	field int32
}

func fusable(o *op) (blockKind, uint32, bool) {
	if o.align != 1 {
		return 0, 0, false
	}
	switch o.code {
	case opU8, opU16L, opU32L, opU64L, opU16B, opU32B, opU64B:
		if o.flags&^fBE != 0 {
			return 0, 0, false
		}
		k := map[opcode]blockKind{opU8: bU8, opU16L: bU16L, opU32L: bU32L, opU64L: bU64L, opU16B: bU16B, opU32B: bU32B, opU64B: bU64B}[o.code]
		return k, uint32(o.size) / 8, true
	case opText:
		if o.flags&fRaw != 0 || o.n > 1<<20 || o.size > 1 {
			return 0, 0, false
		}
		return bText, uint32(o.n), true
	}
	return 0, 0, false
}

// fuse replaces runs of two or more fusable ops by opBlock ops and fixes
// the jumps.
func fuse(p program) program {
	if len(p) < 2 {
		return p
	}
	target := make([]bool, len(p)+1)
	for _, o := range p {
		switch o.code {
		case opJump, opArray, opSeq, opLoopEnd:
			target[o.jump] = true
		case opVariant:
			for _, t := range o.targets {
				target[t] = true
			}
			if o.flags&fOptional != 0 {
				target[o.jump] = true
			}
		}
	}
	newIndex := make([]int32, len(p)+1)
	var out program
	for i := 0; i < len(p); {
		newIndex[i] = int32(len(out))
		j := i
		var fields []blockField
		var bytes uint32
		for j < len(p) && (j == i || !target[j]) {
			k, n, ok := fusable(&p[j])
			if !ok {
				break
			}
			o := &p[j]
			fields = append(fields, blockField{kind: k, sext: o.sext, off: bytes, n: n, slot: o.slot, field: o.field})
			bytes += n
			j++
		}
		if j-i < 2 {
			out = append(out, p[i])
			i++
			continue
		}
		for k := i + 1; k < j; k++ {
			newIndex[k] = int32(len(out)) // not a target: never used
		}
		out = append(out, op{code: opBlock, align: 1, slot: -1, field: -1, n: uint64(bytes) * 8, block: fields})
		i = j
	}
	newIndex[len(p)] = int32(len(out))
	for i := range out {
		o := &out[i]
		switch o.code {
		case opJump, opArray, opSeq, opLoopEnd:
			o.jump = newIndex[o.jump]
		case opVariant:
			t := make([]int32, len(o.targets))
			for k, x := range o.targets {
				t[k] = newIndex[x]
			}
			o.targets = t
			if o.flags&fOptional != 0 {
				o.jump = newIndex[o.jump]
			}
		}
	}
	return out
}
