package search

// Pattern is one .gitignore-style pattern, matched as an ignore file's line matches a path
// relative to the file's directory (a pattern without '/' matches the base name at any depth, a
// trailing '/' only directories). Other packages use it to match paths as ignore files do
// (internal/charset's encodings rules).
type Pattern struct{ list ruleList }

// CompilePattern compiles line as an ignore file's line; ok is false for a line that is no rule
// (blank, a comment) or that negates ('!').
func CompilePattern(line string) (p *Pattern, ok bool) {
	r, ok := parseRule(line)
	if !ok || r.negate {
		return nil, false
	}
	p = &Pattern{}
	p.list.add(r) // files the rule in the compiled matcher's tables
	return p, true
}

// Match reports whether rel ('/'-separated, relative to the pattern's base) matches.
func (p *Pattern) Match(rel string, isDir bool) bool {
	return p.list.match(rel, isDir) == excluded
}
