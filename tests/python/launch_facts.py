"""What a ROS 2 Python launch file says, read from its syntax tree without ROS installed.

    python launch_facts.py FILE.launch.py SCENARIOS.json

prints one JSON object:

* "declared": the names of every DeclareLaunchArgument;
* "used": the names of every LaunchConfiguration;
* "unreadable": places this reader cannot follow (a LaunchConfiguration of a computed name, a
  condition it cannot evaluate): each a failure for the caller, never a silent pass;
* "controller_types": the module-level CONTROLLER_TYPES dict, if any;
* "nodes": every launch_ros Node with its package, executable, literal arguments and, for each
  scenario (a mapping of launch arg values, the others at their declared defaults), whether its
  condition lets it start;
* "paths": every PathJoinSubstitution starting at a FindPackageShare, as package and path.

The conditions are evaluated as launch evaluates them: LaunchConfiguration is the arg's value,
PythonExpression the Python value of its joined parts, IfCondition true for "true" or "1"
(any case) and false for "false" or "0", UnlessCondition the opposite.
"""

import ast
import json
import sys


class Unreadable(Exception):
    pass


def call_name(node):
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
    return None


def literal(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def keyword(call, name):
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


class Reader:
    def __init__(self, tree):
        self.tree = tree
        # Every `name = value` anywhere (launch files bind each name once).
        self.bindings = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        self.bindings[target.id] = node.value
        self.unreadable = []

    def resolve(self, node, depth=0):
        while isinstance(node, ast.Name) and node.id in self.bindings and depth < 32:
            node = self.bindings[node.id]
            depth += 1
        return node

    def declared(self):
        out = {}
        for node in ast.walk(self.tree):
            if call_name(node) == "DeclareLaunchArgument":
                name = literal(node.args[0]) if node.args else literal(keyword(node, "name"))
                if name is None:
                    self.unreadable.append(f"line {node.lineno}: DeclareLaunchArgument of a computed name")
                    continue
                default = keyword(node, "default_value")
                out[name] = literal(default) if default is not None else None
        return out

    def used(self):
        out = []
        for node in ast.walk(self.tree):
            if call_name(node) == "LaunchConfiguration":
                name = literal(node.args[0]) if node.args else None
                if name is None:
                    self.unreadable.append(f"line {node.lineno}: LaunchConfiguration of a computed name")
                else:
                    out.append(name)
        return sorted(set(out))

    def value(self, node, args):
        """The string a substitution becomes with these launch arg values."""
        node = self.resolve(node)
        text = literal(node)
        if text is not None:
            return text
        if isinstance(node, (ast.List, ast.Tuple)):
            return "".join(self.value(n, args) for n in node.elts)
        name = call_name(node)
        if name == "LaunchConfiguration":
            key = literal(node.args[0])
            if key not in args:
                raise Unreadable(f"line {node.lineno}: LaunchConfiguration {key!r} has no value")
            return args[key]
        if name == "PythonExpression":
            return str(eval(self.value(node.args[0], args), {}, {}))  # noqa: S307 (our own file)
        raise Unreadable(f"line {node.lineno}: cannot evaluate {ast.unparse(node)}")

    def starts(self, node, args):
        condition = keyword(node, "condition")
        if condition is None:
            return True
        condition = self.resolve(condition)
        kind = call_name(condition)
        if kind not in ("IfCondition", "UnlessCondition"):
            raise Unreadable(f"line {node.lineno}: condition {ast.unparse(condition)}")
        text = self.value(condition.args[0], args).strip().lower()
        if text in ("true", "1"):
            truth = True
        elif text in ("false", "0"):
            truth = False
        else:
            raise Unreadable(f"line {node.lineno}: condition is {text!r}, not a boolean")
        return truth if kind == "IfCondition" else not truth

    def nodes(self, scenarios, defaults):
        out = []
        for node in ast.walk(self.tree):
            if call_name(node) != "Node":
                continue
            arguments = self.resolve(keyword(node, "arguments")) if keyword(node, "arguments") else None
            entry = {
                "line": node.lineno,
                "package": literal(keyword(node, "package")),
                "executable": literal(keyword(node, "executable")),
                "arguments": [literal(a) for a in arguments.elts] if isinstance(arguments, ast.List) else [],
                "starts": {},
            }
            for scenario, values in scenarios.items():
                args = dict(defaults)
                args.update(values)
                try:
                    entry["starts"][scenario] = self.starts(node, args)
                except Unreadable as e:
                    self.unreadable.append(str(e))
            out.append(entry)
        return out

    def paths(self):
        out = []
        for node in ast.walk(self.tree):
            if call_name(node) != "PathJoinSubstitution" or not node.args:
                continue
            parts = self.resolve(node.args[0])
            if not isinstance(parts, ast.List) or not parts.elts:
                continue
            first = self.resolve(parts.elts[0])
            if call_name(first) != "FindPackageShare":
                continue
            rest = [literal(p) for p in parts.elts[1:]]
            if None in rest:
                self.unreadable.append(f"line {node.lineno}: a computed path under the package")
                continue
            out.append({"package": literal(first.args[0]), "path": "/".join(rest)})
        return out

    def controller_types(self):
        for node in self.tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "CONTROLLER_TYPES" for t in node.targets
            ):
                return ast.literal_eval(node.value)
        return None


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=sys.argv[1])
    with open(sys.argv[2], encoding="utf-8") as f:
        scenarios = json.load(f)
    reader = Reader(tree)
    declared = reader.declared()
    defaults = {k: v for k, v in declared.items() if v is not None}
    facts = {
        "declared": sorted(declared),
        "used": reader.used(),
        "controller_types": reader.controller_types(),
        "nodes": reader.nodes(scenarios, defaults),
        "paths": reader.paths(),
    }
    facts["unreadable"] = reader.unreadable
    json.dump(facts, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
