/**
 * Declarative configuration: a {@link io.shardline.api.config.ConfigDef} describes every key
 * (type, default, validator, importance, doc, group) and cross-field rules; one definition
 * drives parsing, validation with all errors listed, typed access and generated documentation.
 *
 * <p>Typical use:
 * <pre>{@code
 * ConfigDef def = new ConfigDef()
 *     .define("poll.batch.size", ConfigType.INT, 100, Validator.between(1, 10_000),
 *             Importance.MEDIUM, "Entries read per XREADGROUP.", "Polling")
 *     .defineRequired("redis.url", ConfigType.STRING, Validator.nonEmpty(),
 *             Importance.HIGH, "Redis URL.", "Redis");
 * ConfigValues values = def.parse(RawConfig.load(Path.of("worker.properties")));
 * int batch = values.getInt("poll.batch.size");
 * }</pre>
 *
 * <p>JDK only: plugins declare their own settings with the same types.
 */
package io.shardline.api.config;
