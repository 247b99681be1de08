/** The programming languages candidates may answer in, each with its editor mode. */

/** One language the exam editor offers. */
export interface LanguageInfo {
  /** Stable id used in answers and by the judge. */
  id: string;
  /** Name shown to the candidate. */
  name: string;
  /** Editor (syntax) mode. */
  mode: string;
}

/** The 21 languages, in the order the language picker shows them. */
export const LANGUAGES = [
  { id: 'c', name: 'C', mode: 'c' },
  { id: 'cpp', name: 'C++', mode: 'cpp' },
  { id: 'java', name: 'Java', mode: 'java' },
  { id: 'python', name: 'Python', mode: 'python' },
  { id: 'php', name: 'PHP', mode: 'php' },
  { id: 'javascript', name: 'JavaScript', mode: 'javascript' },
  { id: 'go', name: 'Go', mode: 'go' },
  { id: 'csharp', name: 'C#', mode: 'csharp' },
  { id: 'ruby', name: 'Ruby', mode: 'ruby' },
  { id: 'rust', name: 'Rust', mode: 'rust' },
  { id: 'haskell', name: 'Haskell', mode: 'haskell' },
  { id: 'pascal', name: 'Pascal', mode: 'pascal' },
  { id: 'basic', name: 'Basic', mode: 'vb' },
  { id: 'plaintext', name: 'plaintext', mode: 'text' },
  { id: 'perl', name: 'Perl', mode: 'perl' },
  { id: 'bash', name: 'Bash', mode: 'shell' },
  { id: 'coffeescript', name: 'CoffeeScript', mode: 'coffeescript' },
  { id: 'julia', name: 'Julia', mode: 'julia' },
  { id: 'dart', name: 'Dart', mode: 'dart' },
  { id: 'lua', name: 'Lua', mode: 'lua' },
  { id: 'ocaml', name: 'OCaml', mode: 'ocaml' },
] as const satisfies readonly LanguageInfo[];

/** A language id. */
export type LanguageId = (typeof LANGUAGES)[number]['id'];

/** Every language id, in the picker's order. */
export const LANGUAGE_IDS = LANGUAGES.map((l) => l.id) as [LanguageId, ...LanguageId[]];

/** Starter template per language: reads two integers from standard input and prints their sum. */
export const LANGUAGE_TEMPLATES: Readonly<Record<LanguageId, string>> = {
  c: '#include <stdio.h>\n\nint main(void) {\n    long long a, b;\n    if (scanf("%lld %lld", &a, &b) == 2) printf("%lld\\n", a + b);\n    return 0;\n}\n',
  cpp: '#include <iostream>\nusing namespace std;\n\nint main() {\n    long long a, b;\n    cin >> a >> b;\n    cout << a + b << endl;\n    return 0;\n}\n',
  java: 'import java.util.Scanner;\n\npublic class Main {\n    public static void main(String[] args) {\n        Scanner in = new Scanner(System.in);\n        long a = in.nextLong(), b = in.nextLong();\n        System.out.println(a + b);\n    }\n}\n',
  python: 'a, b = map(int, input().split())\nprint(a + b)\n',
  php: '<?php\n[$a, $b] = array_map("intval", preg_split("/\\s+/", trim(fgets(STDIN))));\necho $a + $b, PHP_EOL;\n',
  javascript:
    "const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\nconsole.log(a + b);\n",
  go: 'package main\n\nimport "fmt"\n\nfunc main() {\n\tvar a, b int64\n\tfmt.Scan(&a, &b)\n\tfmt.Println(a + b)\n}\n',
  csharp:
    "using System;\n\nclass Program {\n    static void Main() {\n        var p = Console.ReadLine().Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);\n        Console.WriteLine(long.Parse(p[0]) + long.Parse(p[1]));\n    }\n}\n",
  ruby: 'a, b = gets.split.map(&:to_i)\nputs a + b\n',
  rust: 'use std::io::Read;\n\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect();\n    println!("{}", v[0] + v[1]);\n}\n',
  haskell: 'main :: IO ()\nmain = do\n  [a, b] <- map read . words <$> getLine :: IO [Integer]\n  print (a + b)\n',
  pascal: 'program Main;\nvar a, b: Int64;\nbegin\n  ReadLn(a, b);\n  WriteLn(a + b);\nend.\n',
  basic: 'INPUT a, b\nPRINT a + b\n',
  plaintext: '',
  perl: 'my ($a, $b) = split " ", <STDIN>;\nprint $a + $b, "\\n";\n',
  bash: 'read a b\necho $((a + b))\n',
  coffeescript: "[a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number)\nconsole.log a + b\n",
  julia: 'a, b = parse.(Int, split(readline()))\nprintln(a + b)\n',
  dart: "import 'dart:io';\n\nvoid main() {\n  final p = stdin.readLineSync()!.trim().split(RegExp(r'\\s+')).map(int.parse).toList();\n  print(p[0] + p[1]);\n}\n",
  lua: 'local a, b = io.read("n", "n")\nprint(math.tointeger(a + b) or a + b)\n',
  ocaml: 'let () = Scanf.scanf " %d %d" (fun a b -> print_int (a + b); print_newline ())\n',
};

/**
 * A program's frame per language, which the question editor offers as a starting point for an author's starter
 * code: it reads standard input and leaves the solution to be written (an answer of nothing, so never correct).
 */
export const LANGUAGE_SKELETONS: Readonly<Record<LanguageId, string>> = {
  c: '#include <stdio.h>\n\nint main(void) {\n    /* Read the input from stdin and print the answer to stdout. */\n    return 0;\n}\n',
  cpp: '#include <iostream>\nusing namespace std;\n\nint main() {\n    // Read the input from cin and print the answer to cout.\n    return 0;\n}\n',
  java: 'import java.util.Scanner;\n\npublic class Main {\n    public static void main(String[] args) {\n        Scanner in = new Scanner(System.in);\n        // Read the input from in and print the answer with System.out.\n    }\n}\n',
  python: 'import sys\n\n\ndef main():\n    data = sys.stdin.read().split()\n    # Print the answer.\n\n\nmain()\n',
  php: '<?php\n$input = stream_get_contents(STDIN);\n// Print the answer with echo.\n',
  javascript: "const input = require('fs').readFileSync(0, 'utf8');\n// Print the answer with console.log.\n",
  go: 'package main\n\nimport (\n\t"bufio"\n\t"os"\n)\n\nfunc main() {\n\tin := bufio.NewReader(os.Stdin)\n\t_ = in\n\t// Read the input from in and print the answer to os.Stdout.\n}\n',
  csharp:
    'using System;\n\nclass Program {\n    static void Main() {\n        var input = Console.In.ReadToEnd();\n        // Print the answer with Console.WriteLine.\n    }\n}\n',
  ruby: 'input = $stdin.read\n# Print the answer with puts.\n',
  rust: 'use std::io::Read;\n\nfn main() {\n    let mut input = String::new();\n    std::io::stdin().read_to_string(&mut input).unwrap();\n    // Print the answer with println!.\n}\n',
  haskell: 'main :: IO ()\nmain = do\n  input <- getContents\n  -- Print the answer with putStrLn.\n  return ()\n',
  pascal: 'program Main;\nbegin\n  { Read the input with ReadLn and print the answer with WriteLn. }\nend.\n',
  basic: 'rem Read the input with INPUT and print the answer with PRINT.\nend\n',
  plaintext: '',
  perl: 'my $input = do { local $/; <STDIN> };\n# Print the answer with print.\n',
  bash: 'input=$(cat)\n# Print the answer with echo.\n',
  coffeescript: "input = require('fs').readFileSync(0, 'utf8')\n# Print the answer with console.log.\n",
  julia: 'input = read(stdin, String)\n# Print the answer with println.\n',
  dart: "import 'dart:io';\n\nvoid main() {\n  final input = stdin.readLineSync();\n  // Print the answer with print.\n}\n",
  lua: 'local input = io.read("a")\n-- Print the answer with print.\n',
  ocaml: 'let () =\n  (* Read the input with Scanf.scanf and print the answer with print_string. *)\n  ()\n',
};
