// Table-driven parser tests in the style of mvdan/sh's filetests: one table of
// inputs with the shape of the tree each must give (notation in
// test/support/shape.ts), one table of inputs that must be rejected, with where
// and why. bash is the reference for both: the last suite runs `bash -n` on
// every row (a warning counts as a rejection, as in the corpus test), and lists
// the few rejected rows bash only reports when it runs them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { parse } from "../../grammar/parse.js";
import type * as A from "../../src/ast/nodes.js";
import { RESERVED_WORDS } from "../../src/ast/reserved.js";
import { children } from "../../src/ast/walk.js";
import { printLossless } from "../../src/printer/lossless.js";
import { eachInShell } from "../support/each-in-shell.js";
import { shape } from "../support/shape.js";

/** An input and the shape of its tree. */
type Accepted = readonly [src: string, shape: string];
/** An input, the offset of its error and a fragment of the message. */
type Rejected = readonly [src: string, offset: number, message: string];

const accepted: readonly Accepted[] = [
  // Lists: `;`, `&`, newlines, blank lines.
  ["a; b", "(cmd a) ; (cmd b)"],
  ["a;b;c", "(cmd a) ; (cmd b) ; (cmd c)"],
  ["a;", "(cmd a)"],
  ["a & b", "(& (cmd a)) ; (cmd b)"],
  ["a&b&", "(& (cmd a)) ; (& (cmd b))"],
  ["a\nb", "(cmd a) ; (cmd b)"],
  ["\n\na\n\n\nb\n\n", "(cmd a) ; (cmd b)"],
  ["a;\nb;\n", "(cmd a) ; (cmd b)"],
  ["a &\nb", "(& (cmd a)) ; (cmd b)"],
  ["  \t a  \t", "(cmd a)"],
  ["", ""],

  // And-or lists: left-associative, a newline may follow the operator.
  ["a && b", "(&& (cmd a) (cmd b))"],
  ["a || b", "(|| (cmd a) (cmd b))"],
  ["a&&b||c", "(|| (&& (cmd a) (cmd b)) (cmd c))"],
  ["a || b && c", "(&& (|| (cmd a) (cmd b)) (cmd c))"],
  ["a &&\n\n  b", "(&& (cmd a) (cmd b))"],
  ["a && b &", "(& (&& (cmd a) (cmd b)))"],
  ["a && b; c || d", "(&& (cmd a) (cmd b)) ; (|| (cmd c) (cmd d))"],

  // Pipelines bind tighter than and-or lists.
  ["a | b", "(| (cmd a) (cmd b))"],
  ["a | b | c", "(| (cmd a) (cmd b) (cmd c))"],
  ["a |& b", "(| (cmd a) |& (cmd b))"],
  ["a|&b|c", "(| (cmd a) |& (cmd b) (cmd c))"],
  ["a |\n\n b", "(| (cmd a) (cmd b))"],
  ["a | b && c | d", "(&& (| (cmd a) (cmd b)) (| (cmd c) (cmd d)))"],
  ["a | b &", "(& (| (cmd a) (cmd b)))"],

  // `!` negates a whole pipeline; `time` times one.
  ["! a", "(! (cmd a))"],
  ["! a | b", "(! (| (cmd a) (cmd b)))"],
  ["! a && b", "(&& (! (cmd a)) (cmd b))"],
  ["a || ! b", "(|| (cmd a) (! (cmd b)))"],
  ["! ! a", "(cmd a)"],
  ["! a &", "(& (! (cmd a)))"],
  ["! echo !", "(! (cmd echo !))"],
  ["time a", "(time (cmd a))"],
  ["time a | b", "(time (| (cmd a) (cmd b)))"],
  ["time -p a", "(time-p (cmd a))"],
  ["time -p a | b", "(time-p (| (cmd a) (cmd b)))"],
  ["time", "(time)"],
  ["time -p", "(time-p)"],
  ["time; a", "(time) ; (cmd a)"],
  ["! time a", "(! (time (cmd a)))"],
  ["time ! a", "(time (! (cmd a)))"],
  ["time time a", "(time (time (cmd a)))"],
  ["time a && b", "(&& (time (cmd a)) (cmd b))"],
  ["a && time b", "(&& (cmd a) (time (cmd b)))"],
  ["time { a; }", "(time (group (cmd a)))"],
  ["time -px", "(time (cmd -px))"],
  // After `|`, bash does not read `time` as a reserved word.
  ["a | time b", "(| (cmd a) (cmd time b))"],
  ["a |\ntime b", "(| (cmd a) (cmd time b))"],
  ["a | time", "(| (cmd a) (cmd time))"],
  ["a | time ! b", "(| (cmd a) (cmd time ! b))"],
  ["a |& time -p b", "(| (cmd a) |& (cmd time -p b))"],

  // Simple commands and assignments.
  ["echo", "(cmd echo)"],
  ["echo a  b\tc", "(cmd echo a b c)"],
  ["A=1", "(cmd A=1)"],
  ["A+=1", "(cmd A+=1)"],
  ["A=", "(cmd A=)"],
  ['A="x y"', '(cmd A={dq[lit:"x y"]})'],
  ["A=1 B=2", "(cmd A=1 B=2)"],
  ["A=1 B=2 cmd arg", "(cmd A=1 B=2 cmd arg)"],
  ["A=$x", "(cmd A={$x})"],
  ["A=a=b", "(cmd A=a=b)"],
  ["_x1=1", "(cmd _x1=1)"],
  ["1A=1", "(cmd 1A=1)"],
  ["echo A=1", '(cmd echo "A=1")'],
  ["env A=1 cmd", '(cmd env "A=1" cmd)'],
  ['"A"=1', '(cmd {dq[lit:"A"] lit:"=1"})'],
  [">out A=1 cmd", "(cmd A=1 cmd >out)"],
  ["A=1 >out B=2", "(cmd A=1 B=2 >out)"],
  ["a=(1 2)", "(cmd a=(array 1 2))"],
  ["a=()", "(cmd a=(array))"],
  ["a+=(3 '4 5')", '(cmd a+=(array 3 {sq:"4 5"}))'],
  ["a=(\n  1 # one\n  2\n)", "(cmd a=(array 1 2))"],
  ["a=([0]=x [1]=y)", "(cmd a=(array [0]=x [1]=y))"],
  ["a=(*.ts $x)", '(cmd a=(array {glob:"*" lit:".ts"} {$x}))'],
  ["a[i]=x", "(cmd a[i]=x)"],
  ["a[$i+1]+=x", '(cmd a[{$i lit:"+1"}]+=x)'],
  ["a[i]=(x)", "(cmd a[i]=(array x))"],
  ["declare -A m=([k]=v)", '(cmd declare -A {lit:"m=" (array [k]=v)})'],
  ['local -a xs=(a "b c")', '(cmd local -a {lit:"xs=" (array a {dq[lit:"b c"]})})'],
  ["readonly r=(1)", '(cmd readonly {lit:"r=" (array 1)})'],
  ["typeset -a t=() u=(2)", '(cmd typeset -a {lit:"t=" (array)} {lit:"u=" (array 2)})'],
  ["x=1 declare y=(2)", '(cmd x=1 declare {lit:"y=" (array 2)})'],
  ["export A=1 B", '(cmd export "A=1" B)'],
  ["export PATH=$PATH:/x", '(cmd export {lit:"PATH=" $PATH lit:":/x"})'],

  // Every redirect operator, with and without a file descriptor.
  ["a <f", "(cmd a <f)"],
  ["a >f", "(cmd a >f)"],
  ["a >>f", "(cmd a >>f)"],
  ["a >|f", "(cmd a >|f)"],
  ["a <>f", "(cmd a <>f)"],
  ["a &>f", "(cmd a &>f)"],
  ["a &>>f", "(cmd a &>>f)"],
  ["a 2>&1", "(cmd a 2>&1)"],
  ["a 0<&3", "(cmd a 0<&3)"],
  ["a >&2", "(cmd a >&2)"],
  ["a >& f", "(cmd a >&f)"],
  ["a <&-", "(cmd a <&-)"],
  ["a >&-", "(cmd a >&-)"],
  ["a 3>&-", "(cmd a 3>&-)"],
  ["a {fd}>f", "(cmd a {fd}>f)"],
  ["exec {fd}<&-", "(cmd exec {fd}<&-)"],
  ["{a}>x", "(cmd {a}>x)"],
  ["a {1}>x", '(cmd a "{1}" >x)'],
  ["a 2> f", "(cmd a 2>f)"],
  ["a 2 >f", "(cmd a 2 >f)"],
  ["a 10>f", "(cmd a 10>f)"],
  ["a>b", "(cmd a >b)"],
  ["a2>b", "(cmd a2 >b)"],
  ["echo x>&2", "(cmd echo x >&2)"],
  ['a >"$out" 2>>err.log', "(cmd a >{dq[$out]} 2>>err.log)"],
  ["a >$f", "(cmd a >{$f})"],
  ["a > f1 b 2>f2 c < f3", "(cmd a b c >f1 2>f2 <f3)"],
  [">out", "(cmd >out)"],
  ["<in cmd", "(cmd cmd <in)"],
  ["a &>/dev/null &", "(& (cmd a &>/dev/null))"],
  ["a <<<word", "(cmd a <<<word)"],
  ['a <<< "$x y"', '(cmd a <<<{dq[$x lit:" y"]})'],
  ["a <<<$(b)", "(cmd a <<<{$((cmd b))})"],

  // Here-documents: the body hangs on the redirect that opened it.
  ["cat <<EOF\nhi\nEOF", '(cmd cat <<EOF<<"hi\\n">>)'],
  ["cat <<EOF\nhi\nEOF\n", '(cmd cat <<EOF<<"hi\\n">>)'],
  ["cat << EOF\nhi\nEOF", '(cmd cat <<EOF<<"hi\\n">>)'],
  ["cat <<EOF\nEOF", '(cmd cat <<EOF<<"">>)'],
  ["cat <<EOF\na $x ${y} $(z) `w` \\$q\nEOF", '(cmd cat <<EOF<<{lit:"a " $x lit:" " ${y} lit:" " $((cmd z)) lit:" " `((cmd w)) lit:" " esc:"$" lit:"q\\n"}>>)'],
  ["cat <<EOF\n$((1+2)) ${x:-y}\nEOF", '(cmd cat <<EOF<<{$((1+2)) lit:" " ${x ":-" y} lit:"\\n"}>>)'],
  ["cat <<EOF\n\"$x\" 'y'\nEOF", '(cmd cat <<EOF<<{lit:"\\"" $x lit:"\\" \'y\'\\n"}>>)'],
  ["cat <<EOF\n\\a \\\\ \\`\nEOF", '(cmd cat <<EOF<<{lit:"\\\\a " esc:"\\\\" lit:" " esc:"`" lit:"\\n"}>>)'],
  ["cat <<EOF\na\\\nb\nEOF", '(cmd cat <<EOF<<"ab\\n">>)'],
  ["cat <<'EOF'\n$x `y` \\$z\nEOF", '(cmd cat <<{sq:"EOF"}<<"$x `y` \\\\$z\\n">>)'],
  ['cat <<"EOF"\n$x\nEOF', '(cmd cat <<{dq[lit:"EOF"]}<<"$x\\n">>)'],
  ["cat <<\\EOF\n$x\nEOF", '(cmd cat <<{esc:"E" lit:"OF"}<<"$x\\n">>)'],
  ['cat <<E"O"F\n$x\nEOF', '(cmd cat <<{lit:"E" dq[lit:"O"] lit:"F"}<<"$x\\n">>)'],
  ["cat <<'E O'\nx\nE O", '(cmd cat <<{sq:"E O"}<<"x\\n">>)'],
  ["cat <<-EOF\n\tx\n\tEOF", '(cmd cat <<-EOF<<"\\tx\\n">>)'],
  ["cat <<-'EOF'\n\t$x\n\t\tEOF", '(cmd cat <<-{sq:"EOF"}<<"\\t$x\\n">>)'],
  ["cat <<EOF\n  EOF\nEOFX\nEOF", '(cmd cat <<EOF<<"  EOF\\nEOFX\\n">>)'],
  ["cat <<A <<B\na\nA\nb\nB", '(cmd cat <<A<<"a\\n">> <<B<<"b\\n">>)'],
  ["cat <<A <<-B\na\nA\n\tb\n\tB", '(cmd cat <<A<<"a\\n">> <<-B<<"\\tb\\n">>)'],
  ["cat <<A; cat <<B\na\nA\nb\nB", '(cmd cat <<A<<"a\\n">>) ; (cmd cat <<B<<"b\\n">>)'],
  ["cat <<EOF | grep x\na\nEOF", '(| (cmd cat <<EOF<<"a\\n">>) (cmd grep x))'],
  ["cat <<EOF && echo ok\nx\nEOF", '(&& (cmd cat <<EOF<<"x\\n">>) (cmd echo ok))'],
  ["cat <<EOF >out\nx\nEOF", '(cmd cat <<EOF<<"x\\n">> >out)'],
  ["cat <<EOF # comment\nx\nEOF", '(cmd cat <<EOF<<"x\\n">>)'],
  ["cat <<EOF\nx\nEOF\necho after", '(cmd cat <<EOF<<"x\\n">>) ; (cmd echo after)'],
  ["x=$(cat <<EOF\nhi\nEOF\n)", '(cmd x={$((cmd cat <<EOF<<"hi\\n">>))})'],
  ['echo "$(cat <<EOF\nhi\nEOF\n)"', '(cmd echo {dq[$((cmd cat <<EOF<<"hi\\n">>))]})'],
  ["echo $(cat <<'EOF'\n)\nEOF\n)", '(cmd echo {$((cmd cat <<{sq:"EOF"}<<")\\n">>))})'],
  ["a <<EOF\n$(b <<X\ninner\nX\n)\nEOF", '(cmd a <<EOF<<{$((cmd b <<X<<"inner\\n">>)) lit:"\\n"}>>)'],
  ["if a; then cat <<EOF\nx\nEOF\nfi", '(if (cmd a) then (cmd cat <<EOF<<"x\\n">>))'],
  ["while read l; do echo $l; done <<EOF\na\nEOF", '(while (cmd read l) do (cmd echo {$l})) <<EOF<<"a\\n">>'],
  ["f() {\n  cat <<EOF\nx\nEOF\n}", '(func f (group (cmd cat <<EOF<<"x\\n">>)))'],
  ["coproc cat <<EOF\nx\nEOF", '(coproc (cmd cat <<EOF<<"x\\n">>))'],

  // Quoting.
  ["echo 'a b'", '(cmd echo {sq:"a b"})'],
  ["echo ''", '(cmd echo {sq:""})'],
  ["echo 'a\\b'", '(cmd echo {sq:"a\\\\b"})'],
  ["echo 'it'\\''s'", '(cmd echo {sq:"it" esc:"\'" sq:"s"})'],
  ['echo "a b"', '(cmd echo {dq[lit:"a b"]})'],
  ['echo ""', "(cmd echo {dq[]})"],
  ['echo "a\nb"', '(cmd echo {dq[lit:"a\\nb"]})'],
  ['echo "a\'b"', '(cmd echo {dq[lit:"a\'b"]})'],
  ['echo "$x ${y} $(z) `w` $((1))"', '(cmd echo {dq[$x lit:" " ${y} lit:" " $((cmd z)) lit:" " `((cmd w)) lit:" " $((1))]})'],
  ['echo "a\\"b\\$c\\\\d\\e"', '(cmd echo {dq[lit:"a" esc:"\\"" lit:"b" esc:"$" lit:"c" esc:"\\\\" lit:"d\\\\e"]})'],
  ['echo "$"', '(cmd echo {dq[lit:"$"]})'],
  ['echo "a""b"', '(cmd echo {dq[lit:"a"] dq[lit:"b"]})'],
  ['echo "$(echo "inner $x")"', '(cmd echo {dq[$((cmd echo {dq[lit:"inner " $x]}))]})'],
  ['echo "${x:-"d e"}"', '(cmd echo {dq[${x ":-" {dq[lit:"d e"]}}]})'],
  // Inside double quotes, single quotes in `${x:-…}` are literal.
  ["echo \"${x:-'a'}\"", '(cmd echo {dq[${x ":-" "\'a\'"}]})'],
  ["echo $'a\\'b\\n'", '(cmd echo {ansi:"a\\\\\'b\\\\n"})'],
  ["echo $'\\t'x", '(cmd echo {ansi:"\\\\t" lit:"x"})'],
  ['echo $"hi $x"', '(cmd echo {locale[lit:"hi " $x]})'],
  ["echo a\\ b", '(cmd echo {lit:"a" esc:" " lit:"b"})'],
  ["echo \\$x \\\\", '(cmd echo {esc:"$" lit:"x"} {esc:"\\\\"})'],
  ["echo a'b'\"c\"$d", '(cmd echo {lit:"a" sq:"b" dq[lit:"c"] $d})'],

  // Parameters.
  ["echo $x $1 $@ $# $? $$ $! $- $* $0 $_", "(cmd echo {$x} {$1} {$@} {$#} {$?} {$$} {$!} {$-} {$*} {$0} {$_})"],
  ["echo $12", '(cmd echo {$1 lit:"2"})'],
  ["echo $x_y-z", '(cmd echo {$x_y lit:"-z"})'],
  ["echo $ a$", "(cmd echo $ a$)"],
  ["echo ${x} ${12}", "(cmd echo {${x}} {${12}})"],
  ["echo ${x}y", '(cmd echo {${x} lit:"y"})'],
  ["echo ${#x} ${#} ${#@}", "(cmd echo {${#x}} {${#}} {${#@}})"],
  ["echo ${!x} ${!a[@]}", "(cmd echo {${!x}} {${!a [@]}})"],
  ["echo ${!pre*}", '(cmd echo {${!pre "" *}})'],
  ["echo ${x:-w} ${x-w}", '(cmd echo {${x ":-" w}} {${x "-" w}})'],
  ["echo ${x:=w} ${x=w}", '(cmd echo {${x ":=" w}} {${x "=" w}})'],
  ["echo ${x:?must be set} ${x?}", '(cmd echo {${x ":?" "must be set"}} {${x "?" ""}})'],
  ["echo ${x:+w} ${x+w}", '(cmd echo {${x ":+" w}} {${x "+" w}})'],
  ["echo ${x:-}", '(cmd echo {${x ":-" ""}})'],
  ["echo ${x#*/} ${x##*/}", '(cmd echo {${x "#" */}} {${x "##" */}})'],
  ["echo ${x%.*} ${x%%.*}", '(cmd echo {${x "%" .*}} {${x "%%" .*}})'],
  ["echo ${x/a/b} ${x//a/b}", '(cmd echo {${x "/" a / b}} {${x "//" a / b}})'],
  ["echo ${x/#a/b} ${x/%a/b}", '(cmd echo {${x "/#" a / b}} {${x "/%" a / b}})'],
  ["echo ${x/a} ${x/a/}", '(cmd echo {${x "/" a}} {${x "/" a / ""}})'],
  ["echo ${x//\\//-}", '(cmd echo {${x "//" {esc:"/"} / -}})'],
  ["echo ${x:1:2} ${x:1}", '(cmd echo {${x ":" 1 / 2}} {${x ":" 1}})'],
  ["echo ${x: -1}", '(cmd echo {${x ":" " -1"}})'],
  ["echo ${x:$i:${#y}}", '(cmd echo {${x ":" {$i} / {${#y}}}})'],
  ["echo ${x^^} ${x,,} ${x^} ${x,}", '(cmd echo {${x "^^" ""}} {${x ",," ""}} {${x "^" ""}} {${x "," ""}})'],
  ["echo ${x@Q}", '(cmd echo {${x "@" Q}})'],
  ["echo ${a[@]} ${a[*]} ${a[0]} ${a[i+1]}", "(cmd echo {${a [@]}} {${a [*]}} {${a [0]}} {${a [i+1]}})"],
  ["echo ${#a[@]}", "(cmd echo {${#a [@]}})"],
  ["echo ${a[@]:1:2}", '(cmd echo {${a [@] ":" 1 / 2}})'],
  ["echo ${m[$k]}", "(cmd echo {${m [{$k}]}})"],
  ["echo ${@:2} ${1:-x}", '(cmd echo {${@ ":" 2}} {${1 ":-" x}})'],
  ['echo ${x:-"$y"}', '(cmd echo {${x ":-" {dq[$y]}}})'],
  ["echo ${x:-'a b'}", '(cmd echo {${x ":-" {sq:"a b"}}})'],
  ["echo ${x:-${y:-z}}", '(cmd echo {${x ":-" {${y ":-" z}}}})'],
  ["echo ${x:-$(pwd)}", '(cmd echo {${x ":-" {$((cmd pwd))}}})'],
  ["echo ${x:-a b}", '(cmd echo {${x ":-" "a b"}})'],
  ["echo ${x:-a}}", '(cmd echo {${x ":-" a} lit:"}"})'],
  ['echo ${x%"}"}', '(cmd echo {${x "%" {dq[lit:"}"]}}})'],

  // Command substitution, arithmetic, process substitution.
  ["echo $(pwd)", "(cmd echo {$((cmd pwd))})"],
  ["echo $(a | b; c)", "(cmd echo {$((| (cmd a) (cmd b)) ; (cmd c))})"],
  ["echo $() $( )", "(cmd echo {$()} {$()})"],
  ["echo $(echo $(echo x))", "(cmd echo {$((cmd echo {$((cmd echo x))}))})"],
  ["echo a$(b)c", '(cmd echo {lit:"a" $((cmd b)) lit:"c"})'],
  ["echo $(a)$(b)", "(cmd echo {$((cmd a)) $((cmd b))})"],
  ["echo $(\n  a\n  b\n)", "(cmd echo {$((cmd a) ; (cmd b))})"],
  ["echo $(echo ')') $(echo \\))", '(cmd echo {$((cmd echo {sq:")"}))} {$((cmd echo {esc:")"}))})'],
  ["x=$(case $y in a) echo A;; b|c) echo B;; esac)", "(cmd x={$((case {$y} ((a) (cmd echo A) ;;) ((b | c) (cmd echo B) ;;)))})"],
  ["echo $(case x in (a) y;; esac)", "(cmd echo {$((case x ((a) (cmd y) ;;)))})"],
  ["echo $(case x in a) y; esac)", "(cmd echo {$((case x ((a) (cmd y))))})"],
  ["echo $(# comment\necho x)", "(cmd echo {$((cmd echo x))})"],
  ["echo $(echo x # a ) in a comment\n)", "(cmd echo {$((cmd echo x))})"],
  ["echo $(if a; then b; fi)", "(cmd echo {$((if (cmd a) then (cmd b)))})"],
  ["echo `pwd`", "(cmd echo {`((cmd pwd))})"],
  ["echo ``", "(cmd echo {`()})"],
  ["echo `a | b`x", '(cmd echo {`((| (cmd a) (cmd b))) lit:"x"})'],
  ["echo `echo \\`echo x\\``", "(cmd echo {`((cmd echo {`((cmd echo x))}))})"],
  ["echo `echo \\$x`", "(cmd echo {`((cmd echo {$x}))})"],
  ['echo "`echo \\"x\\"`"', '(cmd echo {dq[`((cmd echo {dq[lit:"x"]}))]})'],
  ["echo $((1+2))", "(cmd echo {$((1+2))})"],
  ["echo $((1 + 2))", '(cmd echo {$(("1 + 2"))})'],
  ["echo $(( (1+2) * 3 ))", '(cmd echo {$((" (1+2) * 3 "))})'],
  ["echo $(($x+1))", '(cmd echo {$(({$x lit:"+1"}))})'],
  ["echo $(( $(a) + 1 ))", '(cmd echo {$(({lit:" " $((cmd a)) lit:" + 1 "}))})'],
  ["echo $( (cd x; pwd) )", "(cmd echo {$((subshell (cmd cd x) ; (cmd pwd)))})"],
  ["echo $((cd x; pwd) )", "(cmd echo {$((subshell (cmd cd x) ; (cmd pwd)))})"],
  ["echo $((echo a); (echo b))", "(cmd echo {$((subshell (cmd echo a)) ; (subshell (cmd echo b)))})"],
  ["echo $[1+2]", "(cmd echo {$[1+2]})"],
  ["echo $[ $x * 2 ]", '(cmd echo {$[{lit:" " $x lit:" * 2 "}]})'],
  ["cat <(ls) >(wc -l)", "(cmd cat {<((cmd ls))} {>((cmd wc -l))})"],
  ["diff <(sort a) <(sort b)", "(cmd diff {<((cmd sort a))} {<((cmd sort b))})"],
  ["a > >(tee log)", "(cmd a >{>((cmd tee log))})"],
  ["echo <()", "(cmd echo {<()})"],

  // Globs, brace expansions, tildes.
  ["ls *.ts", '(cmd ls {glob:"*" lit:".ts"})'],
  ["ls a?c", '(cmd ls {lit:"a" glob:"?" lit:"c"})'],
  ["ls [abc].txt", '(cmd ls {glob:"[abc]" lit:".txt"})'],
  ["ls [!a]*", '(cmd ls {glob:"[!a]" glob:"*"})'],
  ["ls [[:digit:]]x", '(cmd ls {glob:"[[:digit:]]" lit:"x"})'],
  ["ls **/*.md", '(cmd ls {glob:"**" lit:"/" glob:"*" lit:".md"})'],
  ['ls "$d"/*', '(cmd ls {dq[$d] lit:"/" glob:"*"})'],
  ["echo a[1]", '(cmd echo {lit:"a" glob:"[1]"})'],
  ["echo {a,b}", '(cmd echo {brace:"{a,b}"})'],
  ["echo x{1..3}y", '(cmd echo {lit:"x" brace:"{1..3}" lit:"y"})'],
  ["echo {a..z..2}", '(cmd echo {brace:"{a..z..2}"})'],
  ["echo {a,{b,c}}", '(cmd echo {brace:"{a,{b,c}}"})'],
  ["echo {a} {}", '(cmd echo "{a}" "{}")'],
  ["echo ~ ~/x ~root/x", '(cmd echo {~} {~ lit:"/x"} {~root lit:"/x"})'],
  ["echo a~b", "(cmd echo a~b)"],
  ["echo \"*\" '*' \\*", '(cmd echo {dq[lit:"*"]} {sq:"*"} {esc:"*"})'],

  // Line continuations, inside and between words and tokens.
  ["echo a\\\nb", "(cmd echo ab)"],
  ["echo a \\\n b", "(cmd echo a b)"],
  ["echo a\\\n", "(cmd echo a)"],
  ["ec\\\nho x", "(cmd echo x)"],
  ["a\\\n\\\nb", "(cmd ab)"],
  ["wh\\\nile a; do b; done", "(while (cmd a) do (cmd b))"],
  ["if a; th\\\nen b; f\\\ni", "(if (cmd a) then (cmd b))"],
  ["a \\\n| b", "(| (cmd a) (cmd b))"],
  ["A=1\\\n2", "(cmd A=12)"],
  ["echo $x\\\ny", "(cmd echo {$xy})"],
  ['echo "a\\\nb"', '(cmd echo {dq[lit:"ab"]})'],
  ["echo 'a\\\nb'", '(cmd echo {sq:"a\\\\\\nb"})'],
  ["a &\\\n& b", "(&& (cmd a) (cmd b))"],
  ["a |\\\n| b", "(|| (cmd a) (cmd b))"],
  ["a >\\\n> f", "(cmd a >>f)"],
  ["echo $\\\nx $\\\n{y} $\\\n(z)", "(cmd echo {$x} {${y}} {$((cmd z))})"],
  ["echo $(\\\n(1)) $\\\n'a'", '(cmd echo {$((1))} {ansi:"a"})'],
  ["a <\\\n(b)", "(cmd a {<((cmd b))})"],
  ["cat <\\\n<\\\nEOF\nx\nEOF", '(cmd cat <<EOF<<"x\\n">>)'],
  ["case x in a) b;\\\n; esac", "(case x ((a) (cmd b) ;;))"],
  ["2\\\n>f a", "(cmd a 2>f)"],
  ["A\\\n=1 a[1]\\\n=x B+\\\n=2", "(cmd A=1 a[1]=x B+=2)"],

  // Subshells and groups.
  ["(a)", "(subshell (cmd a))"],
  ["( a; b )", "(subshell (cmd a) ; (cmd b))"],
  ["(\na\n)", "(subshell (cmd a))"],
  ["(a &)", "(subshell (& (cmd a)))"],
  ["(a) >out", "(subshell (cmd a)) >out"],
  ["(a) 2>&1 | b", "(| (subshell (cmd a)) 2>&1 (cmd b))"],
  ["((a) )", "(subshell (subshell (cmd a)))"],
  ["( (a) )", "(subshell (subshell (cmd a)))"],
  ["{ a; }", "(group (cmd a))"],
  ["{ a; b; } >out 2>&1", "(group (cmd a) ; (cmd b)) >out 2>&1"],
  ["{\na\n}", "(group (cmd a))"],
  ["{ a & }", "(group (& (cmd a)))"],
  ["{ { a; }; }", "(group (group (cmd a)))"],
  ["{ a; } && { b; }", "(&& (group (cmd a)) (group (cmd b)))"],

  // if / elif / else.
  ["if a; then b; fi", "(if (cmd a) then (cmd b))"],
  ["if a; then b; else c; fi", "(if (cmd a) then (cmd b) else (cmd c))"],
  ["if a; then b; elif c; then d; elif e; then f; else g; fi", "(if (cmd a) then (cmd b) elif (cmd c) then (cmd d) elif (cmd e) then (cmd f) else (cmd g))"],
  ["if a\nthen\n  b\nelse\n  c\nfi", "(if (cmd a) then (cmd b) else (cmd c))"],
  ["if a; b; then c; d; fi", "(if (cmd a) ; (cmd b) then (cmd c) ; (cmd d))"],
  ["if ! a; then b; fi >log", "(if (! (cmd a)) then (cmd b)) >log"],
  ["if [ -f x ]; then :; fi", "(if (cmd [ -f x ]) then (cmd :))"],
  ["if a; then if b; then c; fi; fi", "(if (cmd a) then (if (cmd b) then (cmd c)))"],

  // for, select, while, until.
  ["for x in a b; do echo $x; done", "(for x in a b do (cmd echo {$x}))"],
  ["for x in; do a; done", "(for x in do (cmd a))"],
  ["for x in *.ts\ndo\n  a\ndone", '(for x in {glob:"*" lit:".ts"} do (cmd a))'],
  ["for x; do a; done", "(for x do (cmd a))"],
  ["for x do a; done", "(for x do (cmd a))"],
  ["for x\ndo a; done", "(for x do (cmd a))"],
  ["for x in a b; { echo $x; }", "(for x in a b { (cmd echo {$x}))"],
  ["for x; { a; }", "(for x { (cmd a))"],
  ["for x\n{ a; }", "(for x { (cmd a))"],
  ['for x in "$@"; do a; done >log', "(for x in {dq[$@]} do (cmd a)) >log"],
  ["for in in in; do :; done", "(for in in in do (cmd :))"],
  ["for x in do done; do :; done", "(for x in do done do (cmd :))"],
  ["for ((i=0; i<3; i++)); do echo $i; done", '(for(( i=0 ; " i<3" ; " i++" )) do (cmd echo {$i}))'],
  ["for ((;;)); do a; done", '(for(( "" ; "" ; "" )) do (cmd a))'],
  ["for ((i=0; i<3; i++)) { a; }", '(for(( i=0 ; " i<3" ; " i++" )) { (cmd a))'],
  ["for ((i=0;i<$n;i++))\ndo a; done", '(for(( i=0 ; {lit:"i<" $n} ; i++ )) do (cmd a))'],
  ["for (( i = 0 ; i < 3 ; i++ )); do :; done", '(for(( " i = 0 " ; " i < 3 " ; " i++ " )) do (cmd :))'],
  ["select x in a b; do echo $x; done", "(select x in a b do (cmd echo {$x}))"],
  ["select x; do a; done", "(select x do (cmd a))"],
  ["select x in a; { b; }", "(select x in a { (cmd b))"],
  ["while a; do b; done", "(while (cmd a) do (cmd b))"],
  ["until a; do b; done", "(until (cmd a) do (cmd b))"],
  ["while a; b; do c; d; done", "(while (cmd a) ; (cmd b) do (cmd c) ; (cmd d))"],
  ["while true\ndo\n  b\ndone &", "(& (while (cmd true) do (cmd b)))"],
  ['while read -r l; do echo "$l"; done < f', "(while (cmd read -r l) do (cmd echo {dq[$l]})) <f"],
  ["until [[ -f x ]]; do sleep 1; done", "(until ([[ -f x ]]) do (cmd sleep 1))"],
  ["while :; do :; done | a", "(| (while (cmd :) do (cmd :)) (cmd a))"],

  // case.
  ["case x in a) b;; esac", "(case x ((a) (cmd b) ;;))"],
  ["case $x in a|b) c;; *) d;; esac", '(case {$x} ((a | b) (cmd c) ;;) (({glob:"*"}) (cmd d) ;;))'],
  ["case x in (a) b;; esac", "(case x ((a) (cmd b) ;;))"],
  ["case x in (a|b) ;; esac", "(case x ((a | b)  ;;))"],
  ["case x in a) ;; esac", "(case x ((a)  ;;))"],
  ["case x in a) b ;& c) d ;;& e) f;; esac", "(case x ((a) (cmd b) ;&) ((c) (cmd d) ;;&) ((e) (cmd f) ;;))"],
  ["case x in a) b; esac", "(case x ((a) (cmd b)))"],
  ["case x in a) b\nesac", "(case x ((a) (cmd b)))"],
  ["case x in a) ;; b) esac", "(case x ((a)  ;;) ((b) ))"],
  ["case x in esac", "(case x)"],
  ["case x in a)b;;esac", "(case x ((a) (cmd b) ;;))"],
  ["case x in\n  a)\n    b\n    ;;\n  *)\n    c\n    ;;\nesac", '(case x ((a) (cmd b) ;;) (({glob:"*"}) (cmd c) ;;))'],
  ["case x\nin a) b;; esac", "(case x ((a) (cmd b) ;;))"],
  ['case "$1" in --help|-h) usage;; esac', "(case {dq[$1]} ((--help | -h) (cmd usage) ;;))"],
  ["case x in a) case y in b) c;; esac;; esac", "(case x ((a) (case y ((b) (cmd c) ;;)) ;;))"],
  ["case x in a) b;; esac >out", "(case x ((a) (cmd b) ;;)) >out"],
  ["case x in if) a;; esac", "(case x ((if) (cmd a) ;;))"],
  ["case x in a) b; c;; esac", "(case x ((a) (cmd b) ; (cmd c) ;;))"],
  ["case x in 'a b'|\"c\") d;; esac", '(case x (({sq:"a b"} | {dq[lit:"c"]}) (cmd d) ;;))'],
  ["case x in *.ts) a;; [0-9]*) b;; esac", '(case x (({glob:"*" lit:".ts"}) (cmd a) ;;) (({glob:"[0-9]" glob:"*"}) (cmd b) ;;))'],

  // [[ … ]]: operators, patterns and regular expressions.
  ["[[ -f x ]]", "([[ -f x ]])"],
  ["[[ a ]]", "([[ a ]])"],
  ["[[ a && b || ! c ]]", "([[ a && b || ! c ]])"],
  ["[[ (a || b) && c ]]", "([[ ( a || b ) && c ]])"],
  ["[[ a < b ]]", "([[ a < b ]])"],
  ["[[ a > b ]]", "([[ a > b ]])"],
  ["[[ a -eq 1 && b -lt 2 ]]", "([[ a -eq 1 && b -lt 2 ]])"],
  ["[[ $x =~ ^(a|b)+$ ]]", '([[ {$x} =~ "^(a|b)+$" ]])'],
  ["[[ $x =~ (a)|b ]]", '([[ {$x} =~ "(a)|b" ]])'],
  ["[[ $x =~ [0-9]+ ]]", '([[ {$x} =~ {glob:"[0-9]" lit:"+"} ]])'],
  ["[[ $x =~ ^a\\ b$ ]]", '([[ {$x} =~ {lit:"^a" esc:" " lit:"b$"} ]])'],
  ["[[ x == @(a|b) ]]", '([[ x == "@(a|b)" ]])'],
  ["[[ x != *.ts ]]", '([[ x != {glob:"*" lit:".ts"} ]])'],
  ['[[ $x == *"a b"* ]]', '([[ {$x} == {glob:"*" dq[lit:"a b"] glob:"*"} ]])'],
  ['[[ $a == "$b" ]]', "([[ {$a} == {dq[$b]} ]])"],
  ["[[ x = y ]]", "([[ x = y ]])"],
  ["[[ ! -z $x ]]", "([[ ! -z {$x} ]])"],
  ["[[ a &&\n b ]]", "([[ a && b ]])"],
  ["[[\na ]]", "([[ a ]])"],
  ["[[ !\na ]]", "([[ ! a ]])"],
  ["[[ -f x\n]]", "([[ -f x ]])"],
  ["[[ a == b\n&& c ]]", "([[ a == b && c ]])"],
  ["[[ ( a == b\n) ]]", "([[ ( a == b ) ]])"],
  ["[[ -n x && ( -z y || a =~ (b) ) ]]", '([[ -n x && ( -z y || a =~ "(b)" ) ]])'],
  ["[[ ! ( a ) ]]", "([[ ! ( a ) ]])"],
  ["[[ a = = ]]", "([[ a = = ]])"],
  ["[[ -eq ]]", "([[ -eq ]])"],
  ["[[ -n $x ]] && echo y", "(&& ([[ -n {$x} ]]) (cmd echo y))"],
  ["[[ a ]] >out", "([[ a ]]) >out"],

  // (( … )).
  ["((i++))", "((( i++ )))"],
  ["(( i = 1 + 2 ))", '((( " i = 1 + 2 " )))'],
  ["((x)) && y", "(&& ((( x ))) (cmd y))"],
  ["(( $# > 0 ))", '((( {lit:" " $# lit:" > 0 "} )))'],
  ["((a[1]=2))", "((( a[1]=2 )))"],
  ["(( x )) >out", '((( " x " ))) >out'],

  // Function definitions.
  ["f() { a; }", "(func f (group (cmd a)))"],
  ["f () { a; }", "(func f (group (cmd a)))"],
  ["f() ( a )", "(func f (subshell (cmd a)))"],
  ["f() if a; then b; fi", "(func f (if (cmd a) then (cmd b)))"],
  ["f() [[ a ]]", "(func f ([[ a ]]))"],
  ["f() for x; do :; done", "(func f (for x do (cmd :)))"],
  ["f() { a; } >log", "(func f (group (cmd a)) >log)"],
  ["f()\n{\n  a\n}", "(func f (group (cmd a)))"],
  ["function f { a; }", "(func f (group (cmd a)))"],
  ["function f() { a; }", "(func f (group (cmd a)))"],
  ["function f () ( a )", "(func f (subshell (cmd a)))"],
  ["function f\n{ a; }", "(func f (group (cmd a)))"],
  ["function f { a; }; f", "(func f (group (cmd a))) ; (cmd f)"],
  ["f-name.x() { a; }", "(func f-name.x (group (cmd a)))"],

  // coproc, with and without a name.
  ["coproc a", "(coproc (cmd a))"],
  ["coproc a b", "(coproc (cmd a b))"],
  ["coproc { a; }", "(coproc (group (cmd a)))"],
  ["coproc N { a; }", "(coproc N (group (cmd a)))"],
  ["coproc N (a)", "(coproc N (subshell (cmd a)))"],
  ["coproc N a", "(coproc (cmd N a))"],
  ["coproc a | b", "(| (coproc (cmd a)) (cmd b))"],
  ["coproc while a; do b; done", "(coproc (while (cmd a) do (cmd b)))"],
  ["coproc time a", "(coproc (cmd time a))"],
  ["coproc time { a; }", "(coproc time (group (cmd a)))"],

  // Comments start only at the beginning of a word; CRLF line ends.
  ["a # comment", "(cmd a)"],
  ["# only a comment", ""],
  ["\n\n# c\n\n", ""],
  ["a # c1\n# c2\nb # c3", "(cmd a) ; (cmd b)"],
  ["a#b", "(cmd a#b)"],
  ["echo x#y #z", "(cmd echo x#y)"],
  ["a;#c\nb", "(cmd a) ; (cmd b)"],
  ["echo \\#x", '(cmd echo {esc:"#" lit:"x"})'],
  ["echo $(a)#x", '(cmd echo {$((cmd a)) lit:"#x"})'],
  ['echo "a"#b', '(cmd echo {dq[lit:"a"] lit:"#b"})'],
  ["{ a; } # c", "(group (cmd a))"],
  ["a\r\nb\r\n", "(cmd a) ; (cmd b)"],
  ["if a\r\nthen b\r\nfi\r\n", "(if (cmd a) then (cmd b))"],

  // Reserved words are only reserved where a command starts.
  ["echo if then fi {", '(cmd echo if then fi "{")'],
  ["echo } done esac in do", '(cmd echo "}" done esac in do)'],
  ["echo [[ ]] ! time function coproc select case", "(cmd echo [[ ]] ! time function coproc select case)"],
  ["ifx", "(cmd ifx)"],
  ["if=1", "(cmd if=1)"],
  ["x=if", "(cmd x=if)"],
  ["a in b", "(cmd a in b)"],
  ["echo {a a{", '(cmd echo "{a" "a{")'],
  ["[ a ]", "(cmd [ a ])"],

  // What agents send.
  ["cd x && npm test 2>&1 | tail -30", "(&& (cmd cd x) (| (cmd npm test 2>&1) (cmd tail -30)))"],
  ["git log --format='%H %s' | head -n 3", '(| (cmd git log {lit:"--format=" sq:"%H %s"}) (cmd head -n 3))'],
  ["find . -name '*.ts' -not -path './node_modules/*'", '(cmd find . -name {sq:"*.ts"} -not -path {sq:"./node_modules/*"})'],
  ["FOO=1 timeout 60 npx vitest run", "(cmd FOO=1 timeout 60 npx vitest run)"],
  ['git commit -m "fix: handle \\"x\\""', '(cmd git commit -m {dq[lit:"fix: handle " esc:"\\"" lit:"x" esc:"\\""]})'],
  ["npm run build && npm test -- --coverage || echo failed", "(|| (&& (cmd npm run build) (cmd npm test -- --coverage)) (cmd echo failed))"],
  ["ls -la | grep -v '^d' | wc -l", '(| (cmd ls -la) (cmd grep -v {sq:"^d"}) (cmd wc -l))'],
  ['grep -rn "TODO" src/ --include=*.ts | head -20', '(| (cmd grep -rn {dq[lit:"TODO"]} src/ {lit:"--include=" glob:"*" lit:".ts"}) (cmd head -20))'],
  ['docker run --rm -v "$PWD":/app -w /app node:20 npm ci', '(cmd docker run --rm -v {dq[$PWD] lit:":/app"} -w /app node:20 npm ci)'],
  ['for f in $(git diff --name-only); do npx eslint "$f"; done', "(for f in {$((cmd git diff --name-only))} do (cmd npx eslint {dq[$f]}))"],
  ["if [ -d node_modules ]; then echo ok; else npm install; fi", "(if (cmd [ -d node_modules ]) then (cmd echo ok) else (cmd npm install))"],
  ["python3 -c 'import sys; print(sys.version)'", '(cmd python3 -c {sq:"import sys; print(sys.version)"})'],
  ["curl -s https://x.y/z?a=1&b=2", '(& (cmd curl -s {lit:"https://x.y/z" glob:"?" lit:"a=1"})) ; (cmd b=2)'],
  ["git status --porcelain | awk '{print $2}'", '(| (cmd git status --porcelain) (cmd awk {sq:"{print $2}"}))'],
  ["sed -i 's/foo/bar/g' file.txt", '(cmd sed -i {sq:"s/foo/bar/g"} file.txt)'],
  ["(cd packages/a && npm test) > /tmp/log 2>&1", "(subshell (&& (cmd cd packages/a) (cmd npm test))) >/tmp/log 2>&1"],
  ["export NODE_ENV=production; node dist/index.js &", '(cmd export "NODE_ENV=production") ; (& (cmd node dist/index.js))'],
  ['echo "$(date +%Y-%m-%d)" >> log.txt', "(cmd echo {dq[$((cmd date +%Y-%m-%d))]} >>log.txt)"],
  ["kill -9 $(lsof -t -i:3000)", "(cmd kill -9 {$((cmd lsof -t -i:3000))})"],
  ["cargo test 2>&1 | tee out.txt | tail -n 20", "(| (cmd cargo test 2>&1) (cmd tee out.txt) (cmd tail -n 20))"],
  ["make -j$(nproc)", '(cmd make {lit:"-j" $((cmd nproc))})'],
  ["rg -l foo | xargs -I{} sed -i 's/a/b/' {}", '(| (cmd rg -l foo) (cmd xargs "-I{}" sed -i {sq:"s/a/b/"} "{}"))'],
  ["git diff HEAD~1 -- src/", "(cmd git diff HEAD~1 -- src/)"],
  ["time npm test", "(time (cmd npm test))"],
  ["npm test 2>&1 | grep -E '(FAIL|PASS)' || true", '(|| (| (cmd npm test 2>&1) (cmd grep -E {sq:"(FAIL|PASS)"})) (cmd true))'],
  ["cat > out.txt <<'EOF'\nconst x = `${y}`;\nEOF", '(cmd cat >out.txt <<{sq:"EOF"}<<"const x = `${y}`;\\n">>)'],
  ["git add -A && git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"", '(&& (cmd git add -A) (cmd git commit -m {dq[$((cmd cat <<{sq:"EOF"}<<"msg\\n">>))]}))'],
  ['node -e "console.log(process.version)"', '(cmd node -e {dq[lit:"console.log(process.version)"]})'],
  ["ps aux | grep [n]ode", '(| (cmd ps aux) (cmd grep {glob:"[n]" lit:"ode"}))'],
  ["source .venv/bin/activate && pytest -x -q", "(&& (cmd source .venv/bin/activate) (cmd pytest -x -q))"],

  // Inside "${…}", bash's brace matching skips '…' (the quotes stay literal): `}` there does not close it.
  ['unset x; echo "${x-\'}"; echo EVIL; echo "\'}"', '(cmd unset x) ; (cmd echo {dq[${x "-" "\'}\\"; echo EVIL; echo \\"\'"}]})'],
  ["echo \"${x-'}'}\"", '(cmd echo {dq[${x "-" "\'}\'"}]})'],
  ["echo \"${x:-'a}b'}\"", '(cmd echo {dq[${x ":-" "\'a}b\'"}]})'],
  ["echo ${x-'}'}", '(cmd echo {${x "-" {sq:"}"}}})'],
  // … and `"` and `\\` inside such '…' are plain characters.
  ['echo "${s//\'"\'/x}"', '(cmd echo {dq[${s "//" "\'\\"\'" / x}]})'],
  ["echo \"${x#'\\'}\"", '(cmd echo {dq[${x "#" "\'\\\\\'"}]})'],
  ['echo "${x:-\'"\'}"', '(cmd echo {dq[${x ":-" "\'\\"\'"}]})'],
  // An unquoted here-document joins a line ending in `\` to the next before it looks for the delimiter.
  ["cat <<A\nx\\\nA\nA\necho after", '(cmd cat <<A<<"xA\\n">>) ; (cmd echo after)'],
  ["cat <<A\nx\nA\\\n\necho after", '(cmd cat <<A<<"x\\n">>) ; (cmd echo after)'],
  // `))` of an arithmetic command ends a part: a reserved word or a comment may follow at once.
  ["for ((i=0;i<3;i++))do :; done", '(for(( i=0 ; "i<3" ; i++ )) do (cmd :))'],
  ["if ((1))then :; fi", "(if ((( 1 ))) then (cmd :))"],
  ["((1))#c", "((( 1 )))"],
  ["{ ((1))}", "(group ((( 1 ))))"],
  ["echo $((1))x", '(cmd echo {$((1)) lit:"x"})'],
  // Inside `[[ … ]]`, `((` is two grouping parens.
  ["[[ (( -n a )) ]]", "([[ ( ( -n a ) ) ]])"],
  ["[[ a && ((b)) ]]", "([[ a && ( ( b ) ) ]])"],
  // A line continuation inside `${…}` is nothing, even between an operator's two characters.
  ["echo ${x/\\\n/y}", '(cmd echo {${x "//" y}})'],
  ["echo ${x\\\n}", "(cmd echo {${x}})"],
  ["echo ${x:\\\n-d}", '(cmd echo {${x ":-" d}})'],
  // A line continuation inside a word does not hide its pattern characters.
  ["echo a*\\\nb", '(cmd echo {lit:"a" glob:"*" lit:"b"})'],
  ["echo [a]\\\nb", '(cmd echo {glob:"[a]" lit:"b"})'],
];

const rejected: readonly Rejected[] = [
  // Unterminated quotes and expansions.
  ["echo 'abc", 5, "unterminated single quote"],
  ["'", 0, "unterminated single quote"],
  ['echo "abc', 5, "unterminated double quote"],
  ['"', 0, "unterminated double quote"],
  ["echo $'abc", 5, "unterminated $'"],
  ["echo `abc", 5, "unterminated backquote"],
  ["`", 0, "unterminated backquote"],
  ["echo `a \\`b`", 9, "unterminated backquote"],
  ["echo `if`", 8, "end of input"],
  ["echo $(if)", 9, "unexpected `)`"],
  ["echo $(abc", 10, "expected `)` but found end of input"],
  ["x=$(", 4, "end of input"],
  ["echo $(case x in a) b;; esac", 28, "expected `)`"],
  ["echo $(a))", 9, "unexpected `)`"],
  ['echo "$(a"', 9, "unterminated double quote"],
  ["echo ${abc", 5, "unterminated ${"],
  ["echo ${x/", 5, "unterminated ${"],
  ['echo ${x:-"y}', 10, "unterminated double quote"],
  ["echo ${x:-'a}", 10, "unterminated single quote"],
  ["echo $((1+2", 11, "expected `)`"],
  ["echo $((1+2)", 12, "expected `)`"],
  ["echo $[1+2", 5, "unterminated arithmetic"],
  ["((1+2", 5, "expected `)`"],
  ["(( 1 + 2 )", 10, "expected `)`"],
  ["echo <(a", 8, "expected `)`"],
  ["x=(a", 4, "expected `)`"],
  ["declare a=(1", 12, "expected `)`"],

  // Here-documents whose delimiter line never comes (bash only warns).
  ["cat <<EOF\nbody", 4, "here-document delimited by end of input"],
  ["cat <<EOF", 4, "here-document without a body"],
  ["cat <<EOF\nx\nEOF x", 4, "wanted `EOF`"],
  ["cat <<A <<B\na\nA", 8, "wanted `B`"],
  ["cat <<", 6, "end of input"],
  ["cat << \nx", 7, "newline"],

  // Operators and reserved words where no command can stand.
  [")", 0, "unexpected `)`"],
  ["a )", 2, "unexpected `)`"],
  ["(a))", 3, "unexpected `)`"],
  ["}", 0, "unexpected `}`"],
  ["{a; }", 4, "unexpected `}`"],
  ["fi", 0, "unexpected `fi`"],
  ["done", 0, "unexpected `done`"],
  ["then", 0, "unexpected `then`"],
  ["esac", 0, "unexpected `esac`"],
  ["in", 0, "unexpected `in`"],
  ["echo a; then", 8, "unexpected `then`"],
  ["if a; then b; fi fi", 17, "unexpected `fi`"],
  [";;", 0, "unexpected `;;`"],
  ["a ;;", 2, "unexpected `;;`"],
  [";", 0, "unexpected `;`"],
  ["a; ;", 3, "unexpected `;`"],
  ["a\n;", 2, "unexpected `;`"],
  ["a & ;", 4, "unexpected `;`"],
  ["&", 0, "unexpected `&`"],
  ["&& a", 0, "unexpected `&&`"],
  ["a &&", 4, "end of input"],
  ["a &&\n\n", 6, "end of input"],
  ["a && && b", 5, "unexpected `&&`"],
  ["a ||", 4, "end of input"],
  ["| a", 0, "unexpected `|`"],
  ["a |", 3, "end of input"],
  ["a | | b", 4, "unexpected `|`"],
  ["a && | b", 5, "unexpected `|`"],
  ["a | ! b", 4, "unexpected `!`"],
  ["! | a", 2, "unexpected `|`"],
  ["time -p | a", 8, "unexpected `|`"],
  // As in bash, `word (` starts a function definition.
  ["echo (a)", 6, "expected `)` but found `a`"],
  ["echo a=(1 2)", 7, "unexpected `(`"],
  ["a=(1 2) echo a=(3)", 15, "unexpected `(`"],

  // Redirects without a target.
  ["a <", 3, "end of input"],
  ["echo a >", 8, "end of input"],
  ["a > ; b", 4, "unexpected `;`"],
  ["a 2>&", 5, "end of input"],
  ["a <<<", 5, "end of input"],

  // Unfinished or empty compound commands.
  ["(a", 2, "expected `)` but found end of input"],
  ["( )", 2, "unexpected `)`"],
  ["{ }", 2, "unexpected `}`"],
  ["{ a }", 5, "expected `}` but found end of input"],
  ["if a; then b", 12, "expected `fi` but found end of input"],
  ["if then b; fi", 3, "unexpected `then`"],
  ["if a; then fi", 11, "unexpected `fi`"],
  ["if a; then b; else fi", 19, "unexpected `fi`"],
  ["if a; then b; elif c; fi", 22, "expected `then` but found `fi`"],
  ["while a; do done", 12, "unexpected `done`"],
  ["while do a; done", 6, "unexpected `do`"],
  ["while a; do b", 13, "expected `done` but found end of input"],
  ["until a; do b; od", 17, "expected `done` but found end of input"],
  ["for 1 in a; do b; done", 4, "not a valid loop variable"],
  ["for x-y in a; do :; done", 4, "not a valid loop variable"],
  ["for $x in a; do :; done", 4, "not a valid loop variable"],
  ["for; do :; done", 3, "unexpected `;`"],
  ["for x in a b do c; done", 19, "unexpected `done`"],
  ["for x { a; }", 6, "unexpected `{`"],
  ["select x { a; }", 9, "unexpected `{`"],
  ["select 1 in a; do b; done", 7, "not a valid loop variable"],
  ["for ((i=0; i<3)); do a; done", 6, "((init; condition; step))"],
  ["case x a) b;; esac", 7, "expected `in` but found `a`"],
  ["case x in a b) c;; esac", 12, "expected `)` but found `b`"],
  ["case x in ) a;; esac", 10, "found `)`"],
  ["case x in a) b;;", 16, "expected `esac` but found end of input"],
  ["case x in a) ;; esac)", 20, "unexpected `)`"],
  ["coproc", 6, "end of input"],

  // Function bodies must be compound commands.
  ["f() echo", 4, "unexpected `echo`"],
  ["function f() echo", 13, "unexpected `echo`"],
  ["f()", 3, "end of input"],
  ["f() ( )", 6, "unexpected `)`"],
  ["f() { a; } }", 11, "unexpected `}`"],

  // [[ … ]] follows bash's grammar of conditional expressions.
  ["[[ a", 4, "expected `]]` but found end of input"],
  ["[[ a ]]x", 5, "conditional binary operator expected"],
  ["[[ a b ]]", 5, "conditional binary operator expected"],
  ["[[ a !~ b ]]", 5, "conditional binary operator expected"],
  ['[[ "-f" x ]]', 8, "conditional binary operator expected"],
  ["[[ a\n]]", 4, "conditional binary operator expected"],
  ["[[ -f ]]", 6, "conditional unary operator"],
  ["[[ a == ]]", 8, "conditional binary operator"],
  ["[[ a <\nb ]]", 6, "conditional binary operator but found newline"],
  ["[[ a < ]]", 7, "conditional binary operator"],
  ["[[ a ==\nb ]]", 7, "conditional binary operator but found newline"],
  ["[[ -f\nx ]]", 5, "conditional unary operator but found newline"],
  ["[[ a = b c ]]", 9, "unexpected `c` in conditional expression"],
  ["[[ a < b > c ]]", 9, "unexpected `>` in conditional expression"],
  ["[[ < a ]]", 3, "unexpected `<` in conditional expression"],
  ["[[ ( a ]]", 7, "expected `)`"],
  ["[[ a ) ]]", 5, "unexpected `)` in conditional expression"],
  ["[[ ( ) ]]", 5, "unexpected `)` in conditional expression"],
  ["[[ ]]", 3, "expected a conditional expression"],
  ["[[ ! ]]", 5, "expected a conditional expression"],
  ["[[ a || ]]", 8, "expected a conditional expression"],
];

/**
 * Rejected rows that `bash -n` lets through. bash finds these errors only when it
 * runs the command (a loop variable that is not a name; the command inside
 * backquotes, which it parses late), or, for a missing test before `]]`, its
 * reader gives up without a message and silently stops reading the script there.
 */
const bashNoticesLate = ["echo `a \\`b`", "echo `if`", "for 1 in a; do b; done", "for x-y in a; do :; done", "for $x in a; do :; done", "select 1 in a; do b; done", "[[ ]]", "[[ ! ]]", "[[ a || ]]"];

describe("parser accepts", () => {
  for (const [src, want] of accepted) {
    test(JSON.stringify(src), () => {
      const r = parse(src);
      assert.ok(r.ok, r.ok ? "" : `rejected at ${r.error.offset}: ${r.error.message}`);
      assert.equal(shape(r.script), want);
      assert.equal(printLossless(r.script, src), src);
      assertSpansNested(r.script);
    });
  }
});

describe("parser rejects", () => {
  for (const [src, offset, message] of rejected) {
    test(JSON.stringify(src), () => {
      const r = parse(src);
      assert.ok(!r.ok, r.ok ? `accepted as ${shape(r.script)}` : "");
      assert.equal(r.error.offset, offset, r.error.message);
      assert.ok(r.error.message.includes(message), `message ${JSON.stringify(r.error.message)} lacks ${JSON.stringify(message)}`);
    });
  }
});

/**
 * Every node lies within its parent, except a here-document body, which stands
 * after its command line: it lies within the substitution (or script) around it.
 */
function assertSpansNested(script: A.Script): void {
  const visit = (n: A.Node, parent: A.Node, container: A.Node): void => {
    const outer = n.kind === "Heredoc" ? container : parent;
    assert.ok(n.span.start <= n.span.end, `${n.kind} span ${n.span.start}-${n.span.end} is reversed`);
    assert.ok(outer.span.start <= n.span.start && n.span.end <= outer.span.end, `${n.kind} ${n.span.start}-${n.span.end} is outside ${outer.kind} ${outer.span.start}-${outer.span.end}`);
    const inner = n.kind === "CmdSubst" || n.kind === "ProcSubst" ? n : container;
    for (const c of children(n)) visit(c, n, inner);
  };
  for (const c of children(script)) visit(c, script, script);
}

const hasBash = spawnSync("bash", ["-c", ":"]).status === 0;

describe("bash -n agrees with both tables", { skip: hasBash ? false : "bash not installed" }, () => {
  // rtk reads CRLF line ends as newlines; bash would see a CR ending each word.
  const bashAccepts = (sources: readonly string[]): boolean[] =>
    eachInShell(
      'bash -n "$f"',
      sources.map((src) => src.replace(/\r\n/g, "\n")),
    ).map((b) => b.status === 0 && b.stderr === "");

  test("bash accepts every accepted input", () => {
    const sources = accepted.map(([src]) => src);
    const ok = bashAccepts(sources);
    assert.deepEqual(
      sources.filter((_, i) => !ok[i]),
      [],
    );
  });

  test("bash rejects every rejected input", () => {
    const sources = rejected.map(([src]) => src);
    const ok = bashAccepts(sources);
    assert.deepEqual(
      sources.filter((_, i) => ok[i]),
      bashNoticesLate,
    );
  });

  test("the reserved words the scanner and the printer share are bash's own (compgen -k)", () => {
    const bash = spawnSync("bash", ["-c", "compgen -k"], { encoding: "utf8" }).stdout.split("\n").filter(Boolean);
    assert.deepEqual([...RESERVED_WORDS].sort(), bash.sort());
  });
});
