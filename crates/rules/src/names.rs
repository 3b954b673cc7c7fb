//! Enums whose values have stable text names (variants, result reasons).

/// A fieldless enum whose values have stable text names, declared from one table: the enum,
/// `ALL` (every value, in the table's order), `name`, `Display` (the name) and `FromStr`, which
/// refuses any other text with `$unknown(text)`.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $enum:ident (unknown: $unknown:ident) {
            $($(#[doc = $doc:literal])* $variant:ident = $name:literal,)*
        }
    ) => {
        $(#[$meta])*
        pub enum $enum {
            $($(#[doc = $doc])* $variant,)*
        }

        impl $enum {
            /// Every value, in the order declared.
            pub const ALL: [$enum; [$($enum::$variant),*].len()] = [$($enum::$variant),*];

            /// The value's stable name.
            pub const fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)*
                }
            }
        }

        impl std::fmt::Display for $enum {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $enum {
            type Err = $unknown;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                $enum::ALL
                    .into_iter()
                    .find(|value| value.name() == s)
                    .ok_or_else(|| $unknown(s.to_owned()))
            }
        }
    };
}
