package dev.watchkeeper.readme;

import dev.watchkeeper.autoconfigure.ApiClientCustomizer;
import java.time.Duration;
import java.util.UUID;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** The customizer snippet of docs/client.md. Compiled, not started. */
@Configuration(proxyBeanMethods = false)
class ClientTuning {

    // tag::customizers[]
    @Bean
    @Order(1)
    ApiClientCustomizer timeouts() {
        return client -> client.setHttpClient(client.getHttpClient().newBuilder()
                .connectTimeout(Duration.ofSeconds(5))
                .build());
    }

    @Bean
    @Order(2)   // after timeouts(): sees and keeps what it set
    ApiClientCustomizer requestIds() {
        return client -> client.setHttpClient(client.getHttpClient().newBuilder()
                .addInterceptor(chain -> chain.proceed(chain.request().newBuilder()
                        .header("X-Request-Id", UUID.randomUUID().toString()).build()))
                .build());
    }
    // end::customizers[]
}
