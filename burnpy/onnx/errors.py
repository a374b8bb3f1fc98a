"""What the importer raises: `UnsupportedError` names every node it cannot take at once."""


class Refusal(Exception):
    """One node (or one input, attribute or initializer) the importer cannot take, and why;
    collected into an UnsupportedError."""


class UnsupportedError(ValueError):
    """The model holds nodes the importer cannot take; `problems` lists one line per node (op
    type, domain, opset, node name and the attribute, input or type at fault)."""

    def __init__(self, model: str, problems: list):
        self.problems = list(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(
            f"{model}: cannot be imported ({len(self.problems)} problem(s)); nothing was written:\n"
            f"{lines}"
        )
