package perfdata

// kernelSymbol resolves a kernel address for %ps/%pS.
func (s *Source) kernelSymbol(addr uint64) (string, uint64, bool) {
	return "", 0, false
}

// appendFrame appends " addr sym+off (dso)" for one address.
func (s *Source) appendFrame(dst []byte, ip uint64, mode uint16, leaf bool) []byte {
	return dst
}

// appendCallchain appends the call chain lines of the current sample.
func (s *Source) appendCallchain(dst []byte) []byte {
	return dst
}
