package config

// pos is a place in a config file, already in display form.
type pos struct {
	file string
	line int
	col  int
}

func (p pos) problem(msg string) Problem {
	return Problem{File: p.file, Line: p.line, Col: p.col, Msg: msg}
}

// before orders places within one file; a merged gate can mix files, where the order is moot.
func (p pos) before(q pos) bool {
	return p.line < q.line || p.line == q.line && p.col < q.col
}

// fieldPos remembers both ends of a key: "unknown" or "both set" point at the key, a bad value at
// the value.
type fieldPos struct {
	key   pos
	value pos
}

// positions records which keys a mapping set and where. It survives merging, so that an error
// found after the local override was applied still points into the file that set the key.
type positions struct {
	at map[string]fieldPos
}

// positioned lets the reflective decoder and merger reach the positions embedded in a raw struct.
type positioned interface {
	self() *positions
}

func (p *positions) self() *positions { return p }

func (p *positions) set(key string, fp fieldPos) {
	if p.at == nil {
		p.at = make(map[string]fieldPos)
	}
	p.at[key] = fp
}

func (p *positions) has(key string) bool {
	_, ok := p.at[key]
	return ok
}

func (p *positions) keyPos(key string) pos { return p.at[key].key }

func (p *positions) clear(key string) { delete(p.at, key) }
