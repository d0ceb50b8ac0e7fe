package io.shardline.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ConfigDocsTest {

    @Test
    void rendersGroupsSortedByImportanceThenRequired() {
        ConfigDef def = new ConfigDef()
                .define("b.low", ConfigType.INT, 1, Validator.between(0, 9), Importance.LOW, "Low | piped.", "G")
                .define("a.secret", ConfigType.PASSWORD, "pw", Validator.any(), Importance.HIGH, "Secret.", "G")
                .defineRequired("c.url", ConfigType.STRING, Validator.nonEmpty(), Importance.HIGH, "URL.", "G")
                .definePrefix("handler.", "Handler settings.")
                .require("b.low", "must be small", v -> true);
        String expected = """
                ## G

                | Key | Type | Default | Valid values | Importance | Description |
                | --- | --- | --- | --- | --- | --- |
                | `c.url` | string | *required* | non-empty | high | URL. |
                | `a.secret` | password | `[hidden]` |  | high | Secret. |
                | `b.low` | int | `1` | [0, 9] | low | Low \\| piped. |

                ## Prefixes

                | Prefix | Description |
                | --- | --- |
                | `handler.*` | Handler settings. |

                ## Rules

                - `b.low`: must be small

                """;
        assertEquals(expected, ConfigDocs.markdown(def, 2));
    }
}
