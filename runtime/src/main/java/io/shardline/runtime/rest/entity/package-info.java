/**
 * The REST API's data transfer records: immutable, serialised by Jackson with snake_case names (the
 * shapes of Kafka Connect's REST entities where they fit). None carries a secret: password values are
 * shown as {@code [hidden]}.
 */
package io.shardline.runtime.rest.entity;
