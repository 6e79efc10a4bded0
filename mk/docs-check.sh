#!/bin/sh
# mk/docs-check.sh - the repository stands on its own (part of make check).
#
# Fails, with one line per finding, when
#   1. a tracked file refers to a document that is not in the repository
#      (the names are spelled below only in pieces, so that this script
#      passes itself);
#   2. a tracked file narrates its own past by numbered episodes instead
#      of describing what is (the past is git log's);
#   3. a relative link of a tracked Markdown file does not resolve: the
#      file (relative to the page) must exist, and a #fragment must be
#      the GitHub slug of a heading of the target page.
#
# usage: mk/docs-check.sh [--self-test]
#   --self-test  run the checks on a scratch tree with one finding of
#                each kind and fail unless each is caught (the negative
#                control; make check runs both).
set -u
cd "$(dirname "$0")/.." || exit 2

# the outside documents, and the episode words (in pieces, as above)
S=SPEC; D=DESIGN; C=COST_MODEL; T=STYLE; F=FEASIBILITY; E=sess; E=${E}ion
OUTSIDE="$S\\.md|$D\\.md|$C|$T\\.md|$F|\\b$S [0-9]|\\b$S section|spec item [0-9]|/work/shared|\\.\\./shared/"
EPISODES="\\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|earlier|previous|last|this|next) ${E}s?\\b|\\b${E}s?['’]s\\b|\\b${E} [0-9]"

# links_check FILE...: every relative link of each Markdown FILE
links_check() {
	awk '
	function slug(h,   s) {
		s = tolower(h)
		gsub(/`/, "", s)
		gsub(/[^a-z0-9 _-]/, "", s)
		gsub(/ /, "-", s)
		return s
	}
	# the headings of @f, into have[f, slug]
	function headings(f,   line, fence, h, s, n) {
		if (f in done)
			return
		done[f] = 1
		fence = 0
		while ((getline line < f) > 0) {
			if (line ~ /^[ \t]*(```|~~~)/) { fence = !fence; continue }
			if (fence || line !~ /^#+[ \t]/)
				continue
			h = line
			sub(/^#+[ \t]+/, "", h)
			sub(/[ \t]+#*[ \t]*$/, "", h)
			s = slug(h)
			n = seen[f, s]++
			have[f, n ? s "-" n : s] = 1
		}
		close(f)
	}
	function dirof(p) {
		if (p !~ /\//)
			return "."
		sub(/\/[^\/]*$/, "", p)
		return p
	}
	function norm(p,   n, a, i, out, k) {
		n = split(p, a, "/")
		k = 0
		for (i = 1; i <= n; i++) {
			if (a[i] == "" || a[i] == ".")
				continue
			if (a[i] == ".." && k > 0 && st[k] != "..") { k--; continue }
			st[++k] = a[i]
		}
		out = ""
		for (i = 1; i <= k; i++)
			out = out (i > 1 ? "/" : "") st[i]
		return out == "" ? "." : out
	}
	FNR == 1 { fence = 0 }
	/^[ \t]*(```|~~~)/ { fence = !fence; next }
	fence { next }
	{
		line = $0
		gsub(/`[^`]*`/, "", line)	# code spans hold no links
		while (match(line, /\]\([^)]*\)/)) {
			t = substr(line, RSTART + 2, RLENGTH - 3)
			line = substr(line, RSTART + RLENGTH)
			sub(/[ \t]+"[^"]*"$/, "", t)	# a title
			if (t ~ /^[a-z]+:/ || t == "")
				continue		# http:, mailto: ...
			frag = ""
			if (index(t, "#")) {
				frag = substr(t, index(t, "#") + 1)
				t = substr(t, 1, index(t, "#") - 1)
			}
			target = t == "" ? FILENAME : norm(dirof(FILENAME) "/" t)
			if (t != "" && system("test -e \"" target "\"") != 0) {
				printf "docs-check: %s:%d: broken link %s (no file %s)\n", FILENAME, FNR, t, target
				bad = 1
				continue
			}
			if (frag == "" || target !~ /\.md$/)
				continue
			headings(target)
			if (!have[target, frag]) {
				printf "docs-check: %s:%d: broken link %s#%s (no heading with that anchor in %s)\n", FILENAME, FNR, t, frag, target
				bad = 1
			}
		}
	}
	END { exit bad }
	' "$@"
}

# run_checks: the three checks over the tracked files of the tree in .
run_checks() {
	bad=0
	# the tracked files; outside a git checkout (a tarball), every file
	files=$( { git ls-files 2>/dev/null ||
		   find . -path ./build -prune -o -path ./.git -prune -o \
			-type f -print | sed 's|^\./||'; } |
		 grep -v '^mk/docs-check\.sh$')
	# shellcheck disable=SC2086
	if out=$(printf '%s\n' $files | xargs grep -n -I -E "$OUTSIDE" 2>/dev/null); then
		printf '%s\n' "$out" | sed 's/^/docs-check: refers to a document outside the repository: /'
		bad=1
	fi
	# shellcheck disable=SC2086
	if out=$(printf '%s\n' $files | xargs grep -n -I -i -E "$EPISODES" 2>/dev/null); then
		printf '%s\n' "$out" | sed 's/^/docs-check: narrates the past by episodes: /'
		bad=1
	fi
	md=$(printf '%s\n' $files | grep '\.md$')
	# shellcheck disable=SC2086
	if [ -n "$md" ] && ! links_check $md; then
		bad=1
	fi
	return $bad
}

if [ "${1:-}" = --self-test ]; then
	tmp=$(mktemp -d) || exit 2
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/mk" "$tmp/docs"
	cp "$0" "$tmp/mk/docs-check.sh"
	printf '# Top\n\n[ok](docs/a.md#a-heading) [ok](#top)\n' > "$tmp/README.md"
	printf '# A heading\n\nText.\n' > "$tmp/docs/a.md"
	(cd "$tmp" && git init -q && git add -A) || exit 2
	if ! (cd "$tmp" && sh mk/docs-check.sh >/dev/null); then
		echo "docs-check: self-test: a clean tree fails"
		exit 1
	fi
	fails=0
	for case in outside episode file anchor; do
		rm -rf "$tmp/case" && mkdir "$tmp/case" && cp -r "$tmp/mk" "$tmp/docs" "$tmp/README.md" "$tmp/case/"
		case $case in
		outside) printf 'See %s.md 3.\n' "$S" >> "$tmp/case/docs/a.md" ;;
		episode) printf 'Measured in the fifth %s.\n' "$E" >> "$tmp/case/docs/a.md" ;;
		file)    printf '[x](nope.md)\n' >> "$tmp/case/docs/a.md" ;;
		anchor)  printf '[x](../README.md#no-such)\n' >> "$tmp/case/docs/a.md" ;;
		esac
		(cd "$tmp/case" && git init -q && git add -A) || exit 2
		if (cd "$tmp/case" && sh mk/docs-check.sh >/dev/null); then
			echo "docs-check: self-test: a tree with a(n) $case finding passes"
			fails=$((fails + 1))
		fi
	done
	[ $fails -eq 0 ] && echo "docs-check: self-test: 4 of 4 findings caught"
	exit $fails
fi

if run_checks; then
	n=$( { git ls-files 2>/dev/null || find . -name '*.md'; } | grep -c '\.md$')
	echo "  DOCS    no outside reference, no episodes, every link of $n pages resolves"
	exit 0
fi
exit 1
